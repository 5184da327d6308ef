// Classifies a request by path into the kinds that bans, rate limits and statistics treat differently.
export type RequestKind = 'public' | 'user' | 'provider' | 'admin' | 'infra';

/** `infra` (health probes, API docs, unknown paths) is never banned or rate-limited. */
export function requestKind(url: string): RequestKind {
  const path = url.split('?')[0] ?? '';
  if (path.startsWith('/api/v1/sub/') || path.startsWith('/sub/') || path.startsWith('/connect/')) return 'public';
  if (path.startsWith('/api/v1/subs') || path.startsWith('/api/v1/me')) return 'user';
  if (path.startsWith('/api/v1/providers')) return 'provider';
  if (path.startsWith('/api/v1/admin')) return 'admin';
  return 'infra';
}
