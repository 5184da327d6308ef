// The settings section's API calls: PATCH /api/v1/subs/{token} (only the fields that changed) and DELETE.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { patchBody } from './form';

export function useUpdateSubscription(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ReturnType<typeof patchBody>) =>
      unwrap(api.PATCH('/api/v1/subs/{token}', { params: { path: { token } }, body })),
    onSuccess: (updated) => {
      client.setQueryData(['subs', token], updated);
      return Promise.all([
        client.invalidateQueries({ queryKey: ['subs'], exact: true }),
        // The link's headers (interval, announce, usage) and its page change with the settings.
        client.invalidateQueries({ queryKey: ['subs', token, 'preview'] }),
      ]);
    },
  });
}

export function useDeleteSubscription(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v1/subs/{token}', { params: { path: { token } } })),
    onSuccess: () => {
      // Out of the cached list at once: the list screen would otherwise ask for its sources (404) before refetching.
      client.setQueryData<{ token: string }[]>(['subs'], (list) => list?.filter((sub) => sub.token !== token));
      return client.invalidateQueries({ queryKey: ['subs'], exact: true });
    },
  });
}
