// The admin audit log's API call (GET /api/v1/admin/audit, docs/admin-api.md): the filtered log as an infinite
// query, each page's next_cursor fetching older entries.
import { useInfiniteQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/client';
import { adminApi } from '../../api';

export const FILTERS = ['actor', 'action', 'target', 'since', 'until'] as const;
export type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

const PAGE_SIZE = 50;

export function useAdminAudit(filters: Filters) {
  return useInfiniteQuery({
    queryKey: ['admin', 'audit', filters],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        adminApi.GET('/api/v1/admin/audit', {
          params: { query: { ...filters, limit: PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

export type AuditEntry = NonNullable<ReturnType<typeof useAdminAudit>['data']>['pages'][number]['entries'][number];
