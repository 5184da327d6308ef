// The fixed sets of strings some columns hold: the data layer owns them, and the API schemas and domain rules that use them import them from here.

/** `connections.status`: the states of a provider connection (modules/connections/transitions.ts moves between them). */
export const CONNECTION_STATUSES = ['pending', 'approved', 'revoked'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/** `sources.source_type`: the kinds of source, in the order the API documents them (modules/sources/classify.ts). */
export const SOURCE_TYPES = ['config', 'external_url', 'internal_token'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/** `subscriptions.userinfo_mode`: how a link's `subscription-userinfo` header is made (docs/api.md, Link settings). */
export const USERINFO_MODES = ['none', 'first', 'sum', 'fixed'] as const;
export type UserinfoMode = (typeof USERINFO_MODES)[number];

/** `change_log.kind`: what a change can name (changes/change-log.ts); read back as any string, a newer version may add kinds. */
export const CHANGE_KINDS = [
  'subscription',
  'url',
  'user',
  'bans',
  'whitelist',
  'rules',
  'templates',
  'branding',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/**
 * `request_counts.kind`: the kind of the route a request matched (http/route-kind.ts), or `anonymous` for a request
 * that matched no route (404/405).
 */
export const REQUEST_KINDS = ['public', 'page', 'user', 'provider', 'admin', 'infra', 'anonymous'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];
