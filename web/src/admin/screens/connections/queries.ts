// The connections screen's admin calls: a user's connections, approve or reject one, and process a provider's invite.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/client';
import { adminApi } from '../../api';

const KEY = ['admin', 'connections'] as const;

export function useUserConnections(userId: number | null) {
  return useQuery({
    queryKey: [...KEY, userId],
    enabled: userId !== null,
    queryFn: () =>
      unwrap(adminApi.GET('/api/v1/admin/users/{user_id}/providers', { params: { path: { user_id: userId ?? 0 } } })),
  });
}

function useConnectionWrite<T, V>(write: (variables: V) => Promise<T>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: write, onSettled: () => client.invalidateQueries({ queryKey: KEY }) });
}

export interface Decision {
  userId: number;
  provider: string;
  decision: 'approve' | 'reject';
}

export const useDecide = () =>
  useConnectionWrite(({ userId, provider, decision }: Decision) => {
    const params = { params: { path: { user_id: userId, provider_name: provider } } };
    return decision === 'approve'
      ? unwrap(adminApi.POST('/api/v1/admin/users/{user_id}/providers/{provider_name}/approve', params))
      : unwrap(adminApi.POST('/api/v1/admin/users/{user_id}/providers/{provider_name}/reject', params));
  });

export const useAuthorize = () =>
  useConnectionWrite(({ userId, provider, invite }: { userId: number; provider: string; invite: string }) =>
    unwrap(
      adminApi.POST('/api/v1/admin/providers/{provider_name}/authorize/{user_id}', {
        params: { path: { provider_name: provider, user_id: userId } },
        body: { invite },
      }),
    ),
  );
