// The signed-in session (docs/api.md, Sessions): who is signed in, signing in with a token or a sign-in code, signing out.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, isUnauthorized } from '../api/client';

// Interim: the session routes are not yet in this branch's OpenAPI document, so these calls use fetch directly.
interface SessionInfo {
  user_id: string;
  expires_at: string;
}

async function call<T>(method: string, body?: unknown): Promise<T> {
  const response = await fetch('/api/v1/session', {
    method,
    credentials: 'same-origin',
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (response.status === 204) return undefined as T;
  const payload = (await response.json().catch(() => ({}))) as { error?: string; message?: string };
  if (!response.ok) throw new ApiError(response.status, payload.error ?? 'http_error', payload.message ?? '');
  return payload as T;
}

export const SESSION_KEY = ['session'] as const;

/** The current session, or null when signed out (401). */
export function useSession() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async () => {
      try {
        return await call<SessionInfo>('GET');
      } catch (error) {
        if (isUnauthorized(error)) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

export type Credential = { token: string } | { code: string };

export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (credential: Credential) => call<SessionInfo>('POST', credential),
    onSuccess: async () => {
      client.clear();
      await client.invalidateQueries({ queryKey: SESSION_KEY });
    },
  });
}

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call<void>('DELETE'),
    onSuccess: () => {
      client.clear();
      client.setQueryData(SESSION_KEY, null);
    },
  });
}
