// Which endpoints receive an event: its type is in their list, and a provider's only what concerns it (docs/webhooks.md).
import type { Executor } from '../db/executor.js';
import type { StoredEvent } from '../events/outbox.js';
import { approvedPairs, enabledEndpoints } from './endpoints.store.js';

function wantsType(endpoint: { events: string }, type: string): boolean {
  const events = JSON.parse(endpoint.events) as string[];
  return events.includes('*') || events.includes(type);
}

/**
 * Pairs of event and endpoint to deliver. A provider's endpoint gets the events naming it (its connections and the
 * subscriptions it manages) and the subscription events of users who approved it.
 */
export async function matchEndpoints(
  db: Executor,
  events: readonly StoredEvent[],
): Promise<Array<{ event: StoredEvent; endpointId: string }>> {
  const candidates = events.filter((event) => event.type !== 'webhook.test');
  if (candidates.length === 0) return [];
  const endpoints = await enabledEndpoints(db);
  if (endpoints.length === 0) return [];
  const userIds = [...new Set(candidates.flatMap((e) => (e.userId == null ? [] : [e.userId])))];
  const providerHashes = [...new Set(endpoints.flatMap((e) => (e.provider_hash === null ? [] : [e.provider_hash])))];
  const approved = await approvedPairs(db, userIds, providerHashes);
  const concerns = (event: StoredEvent, providerHash: string) =>
    event.providerHash === providerHash ||
    (event.type.startsWith('subscription.') && approved.has(`${event.userId}:${providerHash}`));
  return candidates.flatMap((event) =>
    endpoints
      .filter((endpoint) => wantsType(endpoint, event.type))
      .filter((endpoint) => endpoint.provider_hash === null || concerns(event, endpoint.provider_hash))
      .map((endpoint) => ({ event, endpointId: endpoint.id })),
  );
}
