// Row types of every table, shared by the stores; booleans are 0/1 integers and timestamps ISO-8601 UTC text on both dialects.
import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { ChangeKind, ConnectionStatus, RequestKind, SourceType, UserinfoMode } from './column-values.js';

/** SQLite returns numbers, pg returns bigint columns as numbers too (see database.ts). */
type Int = ColumnType<number, number, number>;
/** A column with a database default: optional on insert. */
type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface UsersTable {
  user_id: Int;
  user_hash: string;
  token_hash: string;
  is_active: Int;
  created_at: string;
  updated_at: string;
}

export interface ProvidersTable {
  provider_hash: string;
  provider_name: string;
  provider_url: string;
  owner_user_id: Int;
  token_hash: string;
  is_active: Int;
  created_at: string;
  updated_at: string;
}

export interface ConnectionsTable {
  user_id: Int;
  provider_hash: string;
  status: ConnectionStatus;
  /** 1 once the provider has created a subscription for this user (decides reject: revoke vs delete). */
  had_subscriptions: Int;
  created_at: string;
  updated_at: string;
}

export interface SubscriptionsTable {
  token: string;
  user_id: Int;
  provider_hash: string | null;
  /** '' for the user's own scope, else the managing provider's hash: makes (user_id, scope, name) unique on both dialects. */
  scope: string;
  name: string;
  description: string | null;
  /** Link settings (docs/api.md): the profile-update-interval header, in hours. */
  update_interval_hours: Defaulted<number>;
  support_url: string | null;
  web_page_url: string | null;
  announce: string | null;
  userinfo_mode: Defaulted<UserinfoMode>;
  /** Mode `fixed` only: the numbers given (null when not given, served as 0). */
  userinfo_upload: number | null;
  userinfo_download: number | null;
  userinfo_total: number | null;
  userinfo_expire: number | null;
  /** The validated transform chain as JSON (docs/transforms.md); null: none. */
  transforms: string | null;
  created_at: string;
  updated_at: string;
}

export interface SourcesTable {
  subscription_token: string;
  id: string;
  source_type: SourceType;
  /** Config URI or URL without fragment; for internal references the referenced token. */
  data: string;
  ref_token: string | null;
  comment: string | null;
  /** External URLs: the canonical JSON of the fetch options (modules/fetch/fetch-options.ts), null for none. */
  fetch_options: ColumnType<string | null, string | null | undefined, string | null>;
  is_hidden: Int;
  max_depth: Int;
  order_index: Int;
  created_at: string;
  updated_at: string;
  /** Configs: the served line and its parse result (share-uri/stored.ts), valid for parsed_comment and parsed_version. */
  line: ColumnType<string | null, string | null | undefined, string | null>;
  parsed: ColumnType<string | null, string | null | undefined, string | null>;
  parsed_comment: ColumnType<string | null, string | null | undefined, string | null>;
  parsed_version: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface ExternalCacheTable {
  /** The fetch key: the URL, plus its fetch options when it has some (modules/fetch/fetch-options.ts). */
  url: string;
  /** The stored config lines joined by \n: parsed, de-duplicated by identity, at most MAX_RESOLVED_CONFIGS. */
  content: string | null;
  /** sha256 of `content`: equal for identical content, so a resolution reads it once. */
  content_hash: ColumnType<string | null, string | null | undefined, string | null>;
  configs_count: Int;
  fetched_at: string | null;
  last_error: string | null;
  last_attempt_at: string | null;
  claimed_until: string | null;
  /** A shrunken result the guard holds back: the fingerprint of its configs (null when none is held). */
  shrink_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** On how many consecutive fetches that result came. */
  shrink_count: ColumnType<number, number | undefined, number>;
  /** On how many consecutive fetches the body was unparseable (0 after any other outcome). */
  backoff_count: ColumnType<number, number | undefined, number>;
  /** Until when the refresher leaves this key alone after an unparseable body; null when it is not backed off. */
  backoff_until: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
  /** The subscription-userinfo header of the last good fetch, parsed; all null when it carried none. */
  userinfo_upload: number | null;
  userinfo_download: number | null;
  userinfo_total: number | null;
  userinfo_expire: number | null;
  /** The parse results of `content`'s lines (a JSON array), valid while parsed_hash is content_hash. */
  parsed: ColumnType<string | null, string | null | undefined, string | null>;
  parsed_hash: ColumnType<string | null, string | null | undefined, string | null>;
  parsed_version: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface BansTable {
  ip_address: string;
  banned_until: string;
  reason: string | null;
  created_at: string;
}

export interface WhitelistTable {
  ip_address: string;
  description: string;
  added_at: string;
}

export interface RequestCountsTable {
  bucket_start: string;
  kind: RequestKind;
  count: Int;
}

export interface ChangeLogTable {
  id: ColumnType<number, never, never>;
  /** A Change kind; read as any string, since a newer version may write kinds this one does not know. */
  kind: ColumnType<string, ChangeKind, never>;
  /** What changed: a token, a URL, a user id; '' for kinds that name no single thing. */
  subject: string;
  created_at: string;
}

export interface FormatSettingsTable {
  /** 'rules': the format rule list as JSON. */
  name: string;
  value: string;
  updated_at: string;
}

export interface FormatTemplatesTable {
  /** mihomo, sing-box or xray. */
  format: string;
  /** The template document as the admin sent it. */
  template: string;
  updated_at: string;
}

/** An admin signature accepted within its window (modules/admin/replay-guard.ts); pruned once expired. */
export interface AdminReplaysTable {
  /** sha256 of the signature, hex: the signature itself is never stored. */
  signature_hash: string;
  /** Unix milliseconds after which the signature can no longer be accepted anyway. */
  expires_at: Int;
}

/** The outbox (docs/webhooks.md): one row per event, written in the transaction of its change. */
export interface EventsTable {
  seq: ColumnType<number, never, never>;
  id: string;
  type: string;
  actor_kind: string;
  actor_id: string;
  user_id: number | null;
  provider_hash: string | null;
  /** The event's `data` as JSON. */
  data: string;
  created_at: string;
}

/** Append-only: rows are added with their change and removed only by age (AUDIT_RETENTION_DAYS). */
export interface AuditLogTable {
  seq: ColumnType<number, never, never>;
  created_at: string;
  actor_kind: string;
  actor_id: string;
  client_ip: string | null;
  request_id: string | null;
  action: string;
  target: string;
  /** The account the entry concerns (GET /me/audit), null for none. */
  user_id: number | null;
  /** Null for a write that is no event (webhook endpoint management). */
  event_id: string | null;
  /** What changed, as JSON: field names and counts, never values that are secret. */
  summary: string;
}

/** Consecutive failed fetches of one fetch key (source.failing after 3, source.recovered on the next success). */
export interface SourceHealthTable {
  fetch_key: string;
  failures: Int;
  updated_at: string;
}

/** One public fetch of a subscription; the newest 100 per subscription are kept (src/modules/history). */
export interface RequestHistoryTable {
  seq: ColumnType<number, never, never>;
  subscription_token: string;
  /** ISO time the answer was sent. */
  at: string;
  format: string | null;
  rule: string | null;
  status: number;
  user_agent: string | null;
  /** The client address masked to its /24 (IPv4) or /48 (IPv6) network. */
  client: string | null;
  servers: number | null;
}

/** A webhook receiver of the admins (provider_hash null) or of one provider (docs/webhooks.md). */
export interface WebhookEndpointsTable {
  id: string;
  provider_hash: string | null;
  url: string;
  /** JSON array of event types, or ["*"]. */
  events: string;
  description: string;
  enabled: Int;
  disabled_reason: string | null;
  secret: string;
  /** The secret before the last rotation, still signed with until previous_secret_until. */
  previous_secret: string | null;
  previous_secret_until: string | null;
  last_success_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One event to deliver to one endpoint, inserted with the event; leased by one instance at a time. */
export interface WebhookMessagesTable {
  seq: ColumnType<number, never, never>;
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  /** The body as sent: {"type","timestamp","data"}. */
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Int;
  next_attempt_at: string;
  /** Held by an instance until then; null when free. */
  lease_until: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  seq: ColumnType<number, never, never>;
  message_id: string;
  attempted_at: string;
  /** The HTTP status answered, null when none came (timeout, refused connection). */
  status_code: number | null;
  duration_ms: Int;
  /** The first 1 KiB of the answer, or what went wrong. */
  response: string;
}

/** A browser session (docs/security.md): the SHA-256 of its cookie value, never the value. */
export interface SessionsTable {
  id_hash: string;
  user_id: Int;
  created_at: string;
  /** Slides to 7 days after the last use, written at most once an hour. */
  expires_at: string;
  last_seen: string;
}

/** A one-time sign-in link: the SHA-256 of its code; used_at is set by the one sign-in that takes it. */
export interface SignInLinksTable {
  code_hash: string;
  user_id: Int;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** Who minted it: `provider:<name>` or `admin:<api|cli>`. */
  minted_by: string;
}

export interface Database {
  users: UsersTable;
  providers: ProvidersTable;
  connections: ConnectionsTable;
  subscriptions: SubscriptionsTable;
  sources: SourcesTable;
  external_cache: ExternalCacheTable;
  bans: BansTable;
  whitelist: WhitelistTable;
  request_counts: RequestCountsTable;
  change_log: ChangeLogTable;
  format_settings: FormatSettingsTable;
  format_templates: FormatTemplatesTable;
  admin_replays: AdminReplaysTable;
  events: EventsTable;
  audit_log: AuditLogTable;
  source_health: SourceHealthTable;
  request_history: RequestHistoryTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_messages: WebhookMessagesTable;
  webhook_attempts: WebhookAttemptsTable;
  sessions: SessionsTable;
  sign_in_links: SignInLinksTable;
}

export type UserRow = Selectable<UsersTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type NewSubscription = Insertable<SubscriptionsTable>;
export type SourceRow = Selectable<SourcesTable>;
export type NewSource = Insertable<SourcesTable>;
export type ProviderRow = Selectable<ProvidersTable>;
export type ConnectionRow = Selectable<ConnectionsTable>;
