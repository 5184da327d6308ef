// The admin audit log's API call (GET /api/v1/admin/audit, docs/admin-api.md): the filtered log page by page
// (web/src/audit/pages.ts).
import { unwrap } from '../../../api/client';
import { useAuditPages } from '../../../audit/pages';
import { adminApi } from '../../api';

export const FILTERS = ['actor', 'action', 'target', 'since', 'until'] as const;
export type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

export function useAdminAudit(filters: Filters) {
  return useAuditPages(['admin', 'audit', filters], (query) =>
    unwrap(adminApi.GET('/api/v1/admin/audit', { params: { query: { ...filters, ...query } } })),
  );
}

export type AuditEntry = NonNullable<ReturnType<typeof useAdminAudit>['data']>['pages'][number]['entries'][number];
