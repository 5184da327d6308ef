// The transforms editor's API calls: the preview of a chain not yet saved (POST .../preview) and saving it
// (PUT .../transforms). Both keep the error envelope's details.index, which names the operator that cannot run.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../../api/client';
import type { Operator } from './operators';

/** An API refusal; `index` is the failing operator's position for 400 invalid_transform. */
export class ChainError extends ApiError {
  constructor(
    status: number,
    code: string,
    message: string,
    readonly index: number | null,
  ) {
    super(status, code, message);
  }
}

interface Envelope {
  error?: unknown;
  message?: unknown;
  details?: Record<string, unknown> | null;
}

function refusal(response: Response, error: unknown): ChainError {
  const envelope = (error ?? {}) as Envelope;
  const index = envelope.details?.['index'];
  return new ChainError(
    response.status,
    typeof envelope.error === 'string' ? envelope.error : 'http_error',
    typeof envelope.message === 'string' ? envelope.message : response.statusText,
    envelope.error === 'invalid_transform' && typeof index === 'number' ? index : null,
  );
}

/**
 * What the link would serve with `chain`, as a plain list (one share link a line), and each operator's counts. The
 * answer carries the ids of the operators it was asked about, so counts stay with their operator while a newer
 * preview is on its way. Nothing is asked while `enabled` is false (the editor not yet on screen).
 */
export function usePreview(token: string, chain: readonly { id: number; operator: Operator }[], enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: ['subs', token, 'transforms-preview', chain],
    queryFn: async ({ signal }) => {
      const { data, error, response } = await api.POST('/api/v1/subs/{token}/preview', {
        params: { path: { token } },
        body: { format: 'plain', transforms: chain.map((item) => item.operator) },
        signal,
      });
      if (!data) throw refusal(response, error);
      return { ...data, ids: chain.map((item) => item.id) };
    },
    placeholderData: keepPreviousData,
    // A refused chain stays refused; the next edit asks again.
    retry: false,
  });
}

export function useSaveTransforms(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (chain: readonly Operator[]) => {
      const { data, error, response } = await api.PUT('/api/v1/subs/{token}/transforms', {
        params: { path: { token } },
        body: { transforms: [...chain] },
      });
      if (!data) throw refusal(response, error);
      return data;
    },
    onSuccess: (saved) => {
      client.setQueryData(['subs', token], saved);
      return client.invalidateQueries({ queryKey: ['subs'], exact: true });
    },
  });
}
