// The audit log's paging, the same for the user's Activity and the admin's audit log: 50 entries a page, newest
// first, each page's next_cursor fetching the older ones (docs/api.md, docs/admin-api.md).
import { useInfiniteQuery } from '@tanstack/react-query';

const PAGE_SIZE = 50;

export interface PageQuery {
  limit: number;
  cursor?: string;
}

/** `fetchPage` asks the API for one page with the query it is given (the limit, and the cursor after the first page). */
export function useAuditPages<Page extends { next_cursor?: string | null }>(
  queryKey: readonly unknown[],
  fetchPage: (query: PageQuery) => Promise<Page>,
) {
  return useInfiniteQuery({
    queryKey,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => fetchPage({ limit: PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) }),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}
