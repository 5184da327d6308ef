// The sources editor's API calls (docs/api.md, Sources and External sources and refresh) as TanStack Query mutations:
// paste many, replace the list in a new order, change or remove one source, refresh now or accept a held shrink.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { Subscription } from '../queries';

export type Source = Subscription['sources'][number];

/** Keeps the detail query in step: with the subscription an answer carries, else by reading it again. */
function useSettle(token: string) {
  const client = useQueryClient();
  const key = ['subs', token];
  return {
    put: (subscription: Subscription) => client.setQueryData(key, subscription),
    reload: () => client.invalidateQueries({ queryKey: key, exact: true }),
  };
}

/** POST .../sources with {text}: every line added or skipped on its own, with a report of each. */
export function usePasteSources(token: string) {
  const settle = useSettle(token);
  return useMutation({
    mutationFn: (text: string) =>
      unwrap(api.POST('/api/v1/subs/{token}/sources', { params: { path: { token } }, body: { text } })),
    onSuccess: (report) => {
      // A {text} body always answers the report; the {sources} form (not used here) answers the subscription.
      if ('lines' in report) settle.put(report.subscription);
    },
  });
}

/** The body item that recreates a source as it is (docs/api.md: returned sources round-trip through PUT). */
const asItem = (source: Source) => ({
  data: source.data,
  comment: source.comment,
  fetch: source.fetch,
  is_hidden: source.is_hidden,
  max_depth: source.max_depth,
});

/**
 * PUT .../sources with the same sources in a new order: the API's way to reorder. PUT replaces the whole list, so it
 * starts from the list as it is now: a source added meanwhile (another tab, a provider) stays, at the end.
 */
export function useReorderSources(token: string) {
  const settle = useSettle(token);
  return useMutation({
    mutationFn: async (order: string[]) => {
      const now = await unwrap(api.GET('/api/v1/subs/{token}', { params: { path: { token } } }));
      const rank = (source: Source) => {
        const index = order.indexOf(source.id);
        return index === -1 ? order.length : index;
      };
      const sources = [...now.sources].sort((a, b) => rank(a) - rank(b));
      return unwrap(
        api.PUT('/api/v1/subs/{token}/sources', {
          params: { path: { token } },
          body: { sources: sources.map(asItem) },
        }),
      );
    },
    onSuccess: settle.put,
    onError: settle.reload,
  });
}

export interface SourceChange {
  id: string;
  comment?: string;
  is_hidden?: boolean;
}

/** PATCH .../config: hide or show one source, or set its comment ("" resets it to the host). */
export function useChangeSource(token: string) {
  const settle = useSettle(token);
  return useMutation({
    mutationFn: ({ id, ...change }: SourceChange) =>
      unwrap(
        api.PATCH('/api/v1/subs/{token}/config', {
          params: { path: { token } },
          body: { config_id: id, ...change },
        }),
      ),
    onSettled: settle.reload,
  });
}

/** DELETE .../sources for one source. */
export function useRemoveSource(token: string) {
  const settle = useSettle(token);
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/v1/subs/{token}/sources', { params: { path: { token } }, body: { source_ids: [id] } })),
    onSuccess: settle.put,
    onError: settle.reload,
  });
}

/** POST .../refresh: fetch every external source now; `acceptShrink` takes a smaller result at once. */
export function useRefreshSources(token: string) {
  const settle = useSettle(token);
  return useMutation({
    mutationFn: (acceptShrink: boolean) =>
      unwrap(
        api.POST('/api/v1/subs/{token}/refresh', {
          params: { path: { token } },
          body: acceptShrink ? { accept_shrink: true } : {},
        }),
      ),
    onSettled: settle.reload,
  });
}
