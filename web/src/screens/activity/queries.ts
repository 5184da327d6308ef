// The Activity screen's API call (GET /api/v1/me/audit, docs/api.md) as an infinite query: each page's next_cursor fetches the older entries.
import { useInfiniteQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

const PAGE_SIZE = 50;

export function useAuditLog() {
  return useInfiniteQuery({
    queryKey: ['me-audit'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/v1/me/audit', {
          params: { query: { limit: PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}
