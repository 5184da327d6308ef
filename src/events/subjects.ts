// One builder per kind of subject, so every write path names its subject, owner and audit action the same way.
import { createHash } from 'node:crypto';
import type { EventData, EventInput, EventType } from './event-types.js';

const PRESENT_TENSE: Record<string, string> = {
  created: 'create',
  updated: 'update',
  deleted: 'delete',
  rotated: 'rotate',
  disabled: 'disable',
  enabled: 'enable',
  token_refreshed: 'refresh_token',
  sign_in_link_created: 'create_sign_in_link',
  requested: 'request',
  approved: 'approve',
  rejected: 'reject',
  revoked: 'revoke',
  changed: 'change',
};

/** The audit action of an event type: `subscription.updated` -> `subscription.update`. */
export function actionOf(type: EventType): string {
  const [subject, verb = ''] = type.split('.') as [string, string?];
  return `${subject}.${PRESENT_TENSE[verb] ?? verb}`;
}

/**
 * A subscription's id in events and the audit log: derived from its token, which is a secret and never shown. A
 * rotation gives a new id; `subscription.rotated` names both.
 */
export function subscriptionId(token: string): string {
  return `sub_${createHash('sha256').update(token).digest('hex').slice(0, 24)}`;
}

function audited(type: EventType, target: string, event: Omit<EventInput, 'type' | 'audit'>): EventInput {
  return { type, ...event, audit: { action: actionOf(type), target } };
}

export interface SubscriptionSubject {
  token: string;
  userId: number;
  provider: { hash: string; name: string } | null;
}

export function subscriptionEvent(type: EventType, subject: SubscriptionSubject, data: EventData = {}): EventInput {
  const id = subscriptionId(subject.token);
  return audited(type, `subscription:${id}`, {
    userId: subject.userId,
    providerHash: subject.provider?.hash ?? null,
    data: { subscription_id: id, user_id: subject.userId, provider_name: subject.provider?.name ?? null, ...data },
  });
}

export function userEvent(type: EventType, userId: number, data: EventData = {}): EventInput {
  return audited(type, `user:${userId}`, { userId, data: { user_id: userId, ...data } });
}

export function providerEvent(
  type: EventType,
  provider: { hash: string; name: string },
  data: EventData = {},
): EventInput {
  return audited(type, `provider:${provider.name}`, { data: { provider_name: provider.name, ...data } });
}

export function connectionEvent(
  type: EventType,
  userId: number,
  provider: { hash: string; name: string },
  data: EventData = {},
): EventInput {
  return audited(type, `connection:${userId}:${provider.name}`, {
    userId,
    providerHash: provider.hash,
    data: { user_id: userId, provider_name: provider.name, ...data },
  });
}

/** Bans, the whitelist and settings: `target` is e.g. `ban:10.0.0.0/24` or `settings:rules`. */
export function adminEvent(type: EventType, target: string, data: EventData): EventInput {
  return audited(type, target, { data });
}
