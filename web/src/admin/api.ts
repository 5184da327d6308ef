// The admin API client: the same typed openapi-fetch client as the user screens, with every request signed in the browser.
import createClient from 'openapi-fetch';
import type { paths } from '../api/schema';
import { nextTimestamp, signAdminRequest } from './signing';
import { readAdminSecret } from './secret';

export const adminApi = createClient<paths>({ baseUrl: window.location.origin, credentials: 'omit' });

adminApi.use({
  async onRequest({ request }) {
    const secret = readAdminSecret();
    if (!secret) return request;
    const url = new URL(request.url);
    const body = new Uint8Array(await request.clone().arrayBuffer());
    const timestamp = nextTimestamp();
    const signature = await signAdminRequest(secret, {
      timestamp,
      method: request.method,
      pathWithQuery: url.pathname + url.search,
      body,
    });
    request.headers.set('X-Timestamp', timestamp);
    request.headers.set('X-Signature', signature);
    return request;
  },
});
