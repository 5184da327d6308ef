// The signed-in session (docs/api.md, Sessions): who is signed in, signing in with a token or a sign-in code, signing out.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, isUnauthorized, unwrap } from '../api/client';

export const SESSION_KEY = ['session'] as const;

/** The current session, or null when signed out (401). */
export function useSession() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async () => {
      try {
        return await unwrap(api.GET('/api/v1/session'));
      } catch (error) {
        if (isUnauthorized(error)) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

/**
 * Another user's (or nobody's) data must not survive a sign-in or sign-out: every query but the session is dropped.
 * The session query itself is kept and updated, since the shell observes it.
 */
function forgetUserData(client: QueryClient): void {
  client.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
}

export type Credential = { token: string } | { code: string };

export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (credential: Credential) => unwrap(api.POST('/api/v1/session', { body: credential })),
    onSuccess: (session) => {
      forgetUserData(client);
      client.setQueryData(SESSION_KEY, session);
    },
  });
}

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v1/session')),
    onSuccess: () => {
      forgetUserData(client);
      client.setQueryData(SESSION_KEY, null);
    },
  });
}
