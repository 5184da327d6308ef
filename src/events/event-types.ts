// The vocabulary of events (docs/webhooks.md): their types and who caused them.

export const EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.disabled',
  'user.enabled',
  'user.deleted',
  'user.token_refreshed',
  'user.sign_in_link_created',
  'provider.created',
  'provider.updated',
  'provider.deleted',
  'provider.token_refreshed',
  'connection.requested',
  'connection.approved',
  'connection.rejected',
  'connection.revoked',
  'subscription.created',
  'subscription.updated',
  'subscription.deleted',
  'subscription.rotated',
  'source.failing',
  'source.recovered',
  'ban.created',
  'ban.deleted',
  'whitelist.changed',
  'settings.changed',
  'webhook.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const ACTOR_KINDS = ['user', 'provider', 'admin', 'system'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/** `id`: a user id, a provider name, `api`/`cli`/`import` for admins, the component for `system`. */
export interface Actor {
  kind: ActorKind;
  id: string;
}

/** What names the subject and what changed; never a token, a secret or a URL with credentials. */
export type EventData = Record<string, unknown>;

/** One event as a write path announces it, before it has an id and time. */
export interface EventInput {
  type: EventType;
  data: EventData;
  /** The account the event is about, when there is one: decides what `/me/audit` and providers see. */
  userId?: number | null;
  /** The provider the event is about (its connections, its managed subscriptions). */
  providerHash?: string | null;
  /** Set for what the service observes itself (source.failing): whoever's request ran into it did not cause it. */
  actor?: Actor;
  /** The audit log's action and target (e.g. `subscription.update`, `subscription:sub_...`); null: not audited. */
  audit?: { action: string; target: string } | null;
}

/** Records an event inside the running write transaction. */
export type Emit = (event: EventInput) => void;
