// The bans and whitelist screen's API calls (docs/admin-api.md): list, add and remove bans and whitelist entries.
// Addresses in paths are percent-encoded by openapi-fetch (a CIDR's slash becomes %2F) and signed as sent.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/client';
import { adminApi } from '../../api';

const BANS = ['admin', 'bans'] as const;
const WHITELIST = ['admin', 'whitelist'] as const;

export function useBans() {
  return useQuery({ queryKey: BANS, queryFn: () => unwrap(adminApi.GET('/api/v1/admin/bans')) });
}

export function useWhitelist() {
  return useQuery({ queryKey: WHITELIST, queryFn: () => unwrap(adminApi.GET('/api/v1/admin/whitelist')) });
}

export type Ban = NonNullable<ReturnType<typeof useBans>['data']>['entries'][number];
export type WhitelistEntry = NonNullable<ReturnType<typeof useWhitelist>['data']>['entries'][number];

export function useAddBan() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (body: { ip_address: string; duration_seconds?: number }) =>
      unwrap(adminApi.POST('/api/v1/admin/ban', { body })),
    onSuccess: () => queries.invalidateQueries({ queryKey: BANS }),
  });
}

export function useRemoveBan() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (ip: string) =>
      unwrap(adminApi.DELETE('/api/v1/admin/ban/{ip_address}', { params: { path: { ip_address: ip } } })),
    onSuccess: () => queries.invalidateQueries({ queryKey: BANS }),
  });
}

export function useAddWhitelist() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (body: { ip_address: string; description?: string }) =>
      unwrap(adminApi.POST('/api/v1/admin/whitelist', { body })),
    onSuccess: () => queries.invalidateQueries({ queryKey: WHITELIST }),
  });
}

export function useRemoveWhitelist() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (ip: string) =>
      unwrap(adminApi.DELETE('/api/v1/admin/whitelist/{ip_address}', { params: { path: { ip_address: ip } } })),
    onSuccess: () => queries.invalidateQueries({ queryKey: WHITELIST }),
  });
}
