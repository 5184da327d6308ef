// Per-source fetch options (a user agent and extra headers, docs/api.md) change what an upstream answers, so they travel with the URL as one cache key.

/** What is sent upstream besides the service's defaults; header names are lower-case. */
export interface FetchOptions {
  userAgent?: string;
  headers?: Readonly<Record<string, string>>;
}

/** The API's shape (SourceCreate `fetch`, Source `fetch`). */
export interface FetchOptionsInput {
  user_agent?: string | null;
  headers?: Record<string, string> | null;
}

export const MAX_USER_AGENT_LENGTH = 256;
export const MAX_FETCH_HEADERS = 8;
export const MAX_HEADER_VALUE_LENGTH = 512;
/** An HTTP token (RFC 9110 section 5.6.2). */
export const HEADER_NAME_PATTERN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";
/** No CR, LF or NUL: such a value could split the request. */
export const HEADER_VALUE_PATTERN = '^[^\\r\\n\\u0000]*$';

/** Headers a source may not set: they belong to the connection, the request framing or someone's credentials. */
export const FORBIDDEN_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'cookie',
  'authorization',
  'proxy-authorization',
  'content-length',
  'connection',
  'transfer-encoding',
  'te',
  'upgrade',
]);

/** Why these headers cannot be sent, per header name as given; empty when they can (the schema checks the rest). */
export function headerProblems(headers: Record<string, string>): Array<{ name: string; problem: string }> {
  const seen = new Set<string>();
  const problems: Array<{ name: string; problem: string }> = [];
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (FORBIDDEN_HEADERS.has(lower)) problems.push({ name, problem: `header '${lower}' may not be set` });
    else if (seen.has(lower)) problems.push({ name, problem: `header '${lower}' is given twice` });
    seen.add(lower);
  }
  return problems;
}

/**
 * The stored form: JSON with `user_agent` first and header names lower-cased and sorted, so equal options are equal
 * text; null when there is nothing to send (no options, an empty user agent, no headers).
 */
export function canonicalFetchOptions(input: FetchOptionsInput | null | undefined): string | null {
  const userAgent = input?.user_agent ?? '';
  const headers = Object.entries(input?.headers ?? {})
    .map(([name, value]) => [name.toLowerCase(), value] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (userAgent === '' && headers.length === 0) return null;
  return JSON.stringify({
    ...(userAgent !== '' ? { user_agent: userAgent } : {}),
    ...(headers.length > 0 ? { headers: Object.fromEntries(headers) } : {}),
  });
}

/** The API's view of stored options (null for none). */
export function fetchOptionsView(stored: string | null): FetchOptionsInput | null {
  return stored === null ? null : (JSON.parse(stored) as FetchOptionsInput);
}

/**
 * The key of an upstream's cached content, fetch and change-log entry: the URL alone when there are no options (so
 * rows from before options keep their key), else the URL, a space and the stored options. A URL holds no whitespace.
 * `cache.store.ts` builds the same key in SQL.
 */
export function fetchKey(url: string, stored: string | null): string {
  return stored === null ? url : `${url} ${stored}`;
}

export function splitFetchKey(key: string): { url: string; options: FetchOptions | null } {
  const space = key.indexOf(' ');
  if (space < 0) return { url: key, options: null };
  const view = fetchOptionsView(key.slice(space + 1)) ?? {};
  return {
    url: key.slice(0, space),
    options: {
      ...(view.user_agent ? { userAgent: view.user_agent } : {}),
      ...(view.headers ? { headers: view.headers } : {}),
    },
  };
}

/** The URL part of a key (for messages). */
export function urlOfKey(key: string): string {
  const space = key.indexOf(' ');
  return space < 0 ? key : key.slice(0, space);
}
