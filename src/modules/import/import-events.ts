// The events an import produces: one per account, provider, connection and subscription it adds, all in its transaction.
import { adminActing } from '../../events/actor-context.js';
import type { EventInput } from '../../events/event-types.js';
import { connectionEvent, providerEvent, subscriptionEvent, userEvent } from '../../events/subjects.js';
import type { ImportRows } from './target.store.js';

export const IMPORT_ACTING = adminActing('import');

export function importEvents(rows: ImportRows): EventInput[] {
  const names = new Map(rows.providers.map((p) => [p.provider_hash, p.provider_name]));
  const provider = (hash: string | null) => {
    const name = hash === null ? undefined : names.get(hash);
    return hash !== null && name !== undefined ? { hash, name } : null;
  };
  const imported = { imported: true };
  return [
    ...rows.users.map((user) => userEvent('user.created', user.user_id, imported)),
    ...rows.providers.map((p) =>
      providerEvent('provider.created', { hash: p.provider_hash, name: p.provider_name }, imported),
    ),
    ...rows.connections.flatMap((c) => {
      const named = provider(c.provider_hash);
      return named
        ? [connectionEvent('connection.requested', c.user_id, named, { status: c.status, ...imported })]
        : [];
    }),
    ...rows.subscriptions.map((sub) =>
      subscriptionEvent(
        'subscription.created',
        { token: sub.token, userId: sub.user_id, provider: provider(sub.provider_hash ?? null) },
        { name: sub.name, ...imported },
      ),
    ),
  ];
}
