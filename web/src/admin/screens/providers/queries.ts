// The providers screen's admin calls (list, create for an owner's user id, enable/disable, delete, new token).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/client';
import { adminApi } from '../../api';

const KEY = ['admin', 'providers'] as const;

export function useProviders() {
  return useQuery({ queryKey: KEY, queryFn: () => unwrap(adminApi.GET('/api/v1/admin/providers')) });
}

function useProviderWrite<T, V>(write: (variables: V) => Promise<T>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: write, onSettled: () => client.invalidateQueries({ queryKey: KEY }) });
}

export interface NewProvider {
  ownerId: number;
  name: string;
  url: string;
}

/** The API names the owner by user_hash; the admin knows the user id, so the user is looked up first. */
export const useCreateProvider = () =>
  useProviderWrite(async ({ ownerId, name, url }: NewProvider) => {
    const owner = await unwrap(
      adminApi.GET('/api/v1/admin/users/{user_id}', { params: { path: { user_id: ownerId } } }),
    );
    return unwrap(
      adminApi.POST('/api/v1/admin/providers', {
        body: { owner_hash: owner.user_hash, provider_name: name, provider_url: url },
      }),
    );
  });

const path = (provider_hash: string) => ({ params: { path: { provider_hash } } });

export const useSetProviderActive = () =>
  useProviderWrite(({ hash, active }: { hash: string; active: boolean }) =>
    unwrap(adminApi.PATCH('/api/v1/admin/providers/{provider_hash}', { ...path(hash), body: { is_active: active } })),
  );

export const useDeleteProvider = () =>
  useProviderWrite((hash: string) => unwrap(adminApi.DELETE('/api/v1/admin/providers/{provider_hash}', path(hash))));

export const useRefreshProviderToken = () =>
  useProviderWrite((hash: string) =>
    unwrap(adminApi.POST('/api/v1/admin/providers/{provider_hash}/refresh-token', path(hash))),
  );
