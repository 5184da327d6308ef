// The connections screen's API calls (GET /api/v1/me/providers, approve/reject/revoke) as TanStack Query hooks.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

const LIST_KEY = ['connections'] as const;

export function useConnections() {
  return useQuery({ queryKey: LIST_KEY, queryFn: () => unwrap(api.GET('/api/v1/me/providers')) });
}

export type ConnectionAction = 'approve' | 'reject' | 'revoke';

function act(action: ConnectionAction, provider_name: string): Promise<unknown> {
  const params = { params: { path: { provider_name } } };
  if (action === 'approve') return unwrap(api.POST('/api/v1/me/providers/{provider_name}/approve', params));
  if (action === 'reject') return unwrap(api.POST('/api/v1/me/providers/{provider_name}/reject', params));
  return unwrap(api.POST('/api/v1/me/providers/{provider_name}/revoke', params));
}

/** Approves, rejects or revokes one connection, then reloads the list (a rejected or revoked one leaves it). */
export function useConnectionAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ action, provider }: { action: ConnectionAction; provider: string }) => act(action, provider),
    onSettled: () => client.invalidateQueries({ queryKey: LIST_KEY }),
  });
}
