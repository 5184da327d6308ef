// The link section's API calls: rotating the link (POST .../rotate) and what the link answers an app (GET .../preview).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

export function useRotate(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/subs/{token}/rotate', { params: { path: { token } } })),
    onSuccess: (rotated) => {
      client.setQueryData(['subs', rotated.token], rotated);
      // The old token answers 404 from now on: out of the cached list before the list screen asks for its sources.
      client.setQueryData<{ token: string }[]>(['subs'], (list) => list?.filter((sub) => sub.token !== token));
      return client.invalidateQueries({ queryKey: ['subs'], exact: true });
    },
  });
}

/** What the link answers a request with these headers (docs/api.md, Preview); `format` names one (rule `query`). */
export interface PreviewRequest {
  userAgent?: string;
  accept?: string;
  format?: string;
}

export function usePreview(token: string, request: PreviewRequest | null) {
  return useQuery({
    queryKey: ['subs', token, 'preview', request],
    enabled: request !== null,
    placeholderData: keepPreviousData,
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/subs/{token}/preview', {
          params: {
            path: { token },
            query: {
              ...(request?.userAgent ? { user_agent: request.userAgent } : {}),
              ...(request?.accept ? { accept: request.accept } : {}),
              ...(request?.format ? { format: request.format } : {}),
            },
          },
        }),
      ),
  });
}
