// The users screen's admin calls (list, create, enable/disable, delete, new token, sign-in link) as TanStack Query hooks.
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/client';
import { adminApi } from '../../api';

const KEY = ['admin', 'users'] as const;

export interface UserFilter {
  search: string;
  status: 'all' | 'active' | 'disabled';
}

export function useUsers(filter: UserFilter) {
  return useInfiniteQuery({
    queryKey: [...KEY, filter],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        adminApi.GET('/api/v1/admin/users', {
          params: {
            query: {
              ...(filter.search ? { search: filter.search } : {}),
              ...(filter.status === 'all' ? {} : { status: filter.status }),
              ...(pageParam ? { cursor: pageParam } : {}),
            },
          },
        }),
      ),
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}

/** Every write reloads the list; secrets in the answers are kept only by the screen that shows them once. */
function useUserWrite<T, V>(write: (variables: V) => Promise<T>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: write, onSettled: () => client.invalidateQueries({ queryKey: KEY }) });
}

const path = (user_id: number) => ({ params: { path: { user_id } } });

export const useCreateUser = () =>
  useUserWrite((user_id: number) => unwrap(adminApi.POST('/api/v1/admin/users', { body: { user_id } })));

export const useSetActive = () =>
  useUserWrite(({ userId, active }: { userId: number; active: boolean }) =>
    unwrap(adminApi.PATCH('/api/v1/admin/users/{user_id}', { ...path(userId), body: { is_active: active } })),
  );

export const useDeleteUser = () =>
  useUserWrite((userId: number) => unwrap(adminApi.DELETE('/api/v1/admin/users/{user_id}', path(userId))));

export const useRefreshUserToken = () =>
  useUserWrite((userId: number) => unwrap(adminApi.POST('/api/v1/admin/users/{user_id}/refresh-token', path(userId))));

export const useSignInLink = () =>
  useUserWrite((userId: number) => unwrap(adminApi.POST('/api/v1/admin/users/{user_id}/sign-in-link', path(userId))));
