// The account screen's API call: POST /api/v1/me/refresh-token, which also sets a fresh session cookie for this browser.
import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

/** The new token is kept only by the screen that shows it once, never in the query cache. */
export function useRefreshToken() {
  return useMutation({ mutationFn: () => unwrap(api.POST('/api/v1/me/refresh-token')) });
}
