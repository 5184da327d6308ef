// The branding screen's API calls: read and change the branding; a change refreshes the dashboard's own header too.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/client';
import type { paths } from '../../../api/schema';
import { BRANDING_KEY } from '../../../shell/branding';
import { adminApi } from '../../api';

export type BrandingBody = paths['/api/v1/admin/branding']['put']['requestBody']['content']['application/json'];

const KEY = ['admin', 'branding'];

export function useBrandingSettings() {
  return useQuery({ queryKey: KEY, queryFn: () => unwrap(adminApi.GET('/api/v1/admin/branding')) });
}

export function useSaveBranding() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (body: BrandingBody) => unwrap(adminApi.PUT('/api/v1/admin/branding', { body })),
    onSuccess: async (answer) => {
      queries.setQueryData(KEY, answer);
      await queries.invalidateQueries({ queryKey: BRANDING_KEY });
    },
  });
}
