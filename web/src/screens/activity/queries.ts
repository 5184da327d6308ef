// The Activity screen's API calls (GET /api/v1/me/audit, docs/api.md): the log page by page (web/src/audit/pages.ts),
// and the names of the user's subscriptions by their audit id.
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { useAuditPages } from '../../audit/pages';

export function useAuditLog() {
  return useAuditPages(['me-audit'], (query) => unwrap(api.GET('/api/v1/me/audit', { params: { query } })));
}

/**
 * The audit log names a subscription by `sub_` + the first 24 hex digits of its token's SHA-256 (docs/webhooks.md),
 * never by its token; hashing the tokens of the user's subscriptions gives their names back. Browsers offer SHA-256
 * only to secure origins (HTTPS or localhost); elsewhere the map is empty and the screen shows the ids.
 */
export function useSubscriptionNames() {
  return useQuery({
    queryKey: ['subscription-names-by-audit-id'],
    enabled: globalThis.isSecureContext && globalThis.crypto?.subtle !== undefined,
    queryFn: async () => {
      const subs = await unwrap(api.GET('/api/v1/subs'));
      const pairs = await Promise.all(subs.map(async (sub) => [await auditId(sub.token), sub.name] as const));
      return new Map(pairs);
    },
  });
}

async function auditId(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `sub_${hex.slice(0, 24)}`;
}
