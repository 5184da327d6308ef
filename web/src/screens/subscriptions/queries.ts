// The subscription screens' API calls (GET/POST /api/v1/subs, GET /api/v1/subs/{token}) as TanStack Query hooks.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

const LIST_KEY = ['subs'] as const;

export function useSubscriptions() {
  return useQuery({ queryKey: LIST_KEY, queryFn: () => unwrap(api.GET('/api/v1/subs')) });
}

const detailQuery = (token: string) => ({
  queryKey: [...LIST_KEY, token],
  queryFn: () => unwrap(api.GET('/api/v1/subs/{token}', { params: { path: { token } } })),
});

export function useSubscription(token: string) {
  return useQuery(detailQuery(token));
}

export interface NewSubscription {
  name: string;
  description: string;
  sources: string[];
}

export function useCreateSubscription() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ name, description, sources }: NewSubscription) =>
      unwrap(
        api.POST('/api/v1/subs', {
          body: { name, ...(description ? { description } : {}), ...(sources.length > 0 ? { sources } : {}) },
        }),
      ),
    onSuccess: (created) => {
      client.setQueryData([...LIST_KEY, created.token], created);
      return client.invalidateQueries({ queryKey: LIST_KEY, exact: true });
    },
  });
}

/** A subscription as GET /api/v1/subs/{token} answers it (typed from the generated schema). */
export type Subscription = NonNullable<ReturnType<typeof useSubscription>['data']>;
