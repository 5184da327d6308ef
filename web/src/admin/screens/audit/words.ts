// An admin audit entry in words: its action (the shared wording, else the console's), who acted, what it touched,
// and the summary fields the shared wording leaves out, as `name: value`.
import type { TFunction } from 'i18next';
import { actionWords, fieldLabel, summaryValue, WORDED_FIELDS } from '../../../audit/summary';
import { formatId } from '../../../i18n/numbers';
import type { AuditEntry } from './queries';
import { ADMIN_AUDIT } from './strings';

/** Every action the log records (src/events/subjects.ts, src/webhooks/webhooks.service.ts), for the action filter. */
export const KNOWN_ACTIONS = [
  'user.create',
  'user.update',
  'user.disable',
  'user.enable',
  'user.delete',
  'user.refresh_token',
  'user.create_sign_in_link',
  'provider.create',
  'provider.update',
  'provider.delete',
  'provider.refresh_token',
  'connection.request',
  'connection.approve',
  'connection.reject',
  'connection.revoke',
  'subscription.create',
  'subscription.update',
  'subscription.delete',
  'subscription.rotate',
  'ban.create',
  'ban.delete',
  'whitelist.change',
  'settings.change',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'webhook.rotate_secret',
  'webhook.redeliver',
  'webhook.test',
] as const;

export function describeAction(entry: Pick<AuditEntry, 'action' | 'summary'>, t: TFunction): string {
  // One action covers both directions; the summary's `added` tells which.
  if (entry.action === 'whitelist.change') {
    return t(entry.summary['added'] === false ? 'whitelistRemoved' : 'whitelistAdded', { ns: ADMIN_AUDIT });
  }
  return actionWords(entry.action, t, ADMIN_AUDIT);
}

/** How admins act: through the signed API, the CLI, or the v2hub importer. */
const ADMIN_WAYS: Record<string, string> = {
  api: 'actors.adminApi',
  cli: 'actors.adminCli',
  import: 'actors.adminImport',
};

export function describeActor(actor: AuditEntry['actor'], t: TFunction, language: string): string {
  const way = actor.kind === 'admin' ? ADMIN_WAYS[actor.id] : undefined;
  if (way) return t(way);
  const id = actor.kind === 'user' ? formatId(actor.id, language) : actor.id;
  return t(`actors.${actor.kind}`, { id, defaultValue: `${actor.kind}:${actor.id}` });
}

/** `connection:42:acme` -> "Connection: user 42, provider acme"; other targets: their kind in words and their id. */
export function describeTarget(target: string, t: TFunction): { label: string; id: string } {
  const [kind = '', ...rest] = target.split(':');
  if (kind === 'connection' && rest.length >= 2) {
    return { label: t('targets.connection'), id: t('targets.connectionIds', { user: rest[0], provider: rest[1] }) };
  }
  return { label: t(`targets.${kind}`, { defaultValue: kind }), id: rest.join(':') };
}

/** The summary fields the shared wording does not cover, each as its label and its value in words. */
export function otherSummary(entry: AuditEntry, t: TFunction, language: string): { label: string; value: string }[] {
  return Object.entries(entry.summary)
    .filter(([name, value]) => !WORDED_FIELDS.includes(name) && value !== null && value !== undefined)
    .map(([name, value]) => ({ label: fieldLabel(name, t), value: summaryValue(name, value, t, language) }));
}
