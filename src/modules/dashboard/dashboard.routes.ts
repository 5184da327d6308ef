// Serves the dashboard at /app/: index.html for every app path (client routing) with a per-answer CSP nonce, and the
// hashed assets cached immutably, brotli or gzip as the client accepts (docs/dashboard.md).
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { routeDefaults } from '../../http/route-defaults.js';
import { errors } from '../../http/errors.js';
import { NONCE_PLACEHOLDER, pickEncoding, readAppFiles, type AppFiles } from './app-files.js';

const COMMON_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * Scripts come only from /app/assets; Mantine injects <style> tags, which carry the per-answer nonce (it reads it
 * from <meta property="csp-nonce">), so no 'unsafe-inline' anywhere. Nothing is loaded from another origin.
 */
export function appCsp(nonce: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head>
<body><h1>The dashboard is not built</h1>
<p>This server was built without its web app (dist/app is missing). Run <code>npm run build</code>, then restart the
server. The API and the subscription links work without it.</p></body></html>
`;

export const dashboardRoutes: FastifyPluginAsync<{ appDir: string }> = async (app, { appDir }) => {
  // The service's own static files, like /docs: one cold load of the app takes dozens of them, which the public budget
  // (and the bans its refusals lead to) must not count. The app's API calls have kinds and budgets of their own.
  routeDefaults(app, { kind: 'infra' });
  // Read on first use and kept; while the app is not built, every request looks again.
  let files: Promise<AppFiles | null> | null = null;
  const load = async (): Promise<AppFiles | null> => {
    files ??= readAppFiles(appDir);
    const loaded = await files.catch((err: unknown) => {
      files = null;
      throw err;
    });
    if (!loaded) files = null;
    return loaded;
  };

  const sendIndex = async (_request: FastifyRequest, reply: FastifyReply) => {
    const loaded = await load();
    if (!loaded) {
      return reply
        .code(503)
        .headers({ ...COMMON_HEADERS, 'cache-control': 'no-store', 'content-security-policy': "default-src 'none'" })
        .type('text/html; charset=utf-8')
        .send(NOT_BUILT_PAGE);
    }
    const nonce = randomBytes(16).toString('base64');
    return reply
      .headers({
        ...COMMON_HEADERS,
        'cache-control': 'no-cache',
        'content-security-policy': appCsp(nonce),
        'x-frame-options': 'DENY',
        'cross-origin-opener-policy': 'same-origin',
      })
      .type('text/html; charset=utf-8')
      .send(loaded.index.replaceAll(NONCE_PLACEHOLDER, nonce));
  };

  const schema = { hide: true };
  app.get('/app', { schema }, sendIndex);
  app.get<{ Params: { name: string } }>('/app/assets/:name', { schema }, async (request, reply) => {
    const asset = (await load())?.assets.get(request.params.name);
    if (!asset) throw errors.notFound('No such dashboard file.');
    const encoding = pickEncoding(request.headers['accept-encoding'], asset);
    reply.headers({
      ...COMMON_HEADERS,
      'cache-control': 'public, max-age=31536000, immutable',
      vary: 'Accept-Encoding',
      'content-type': asset.type,
    });
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(encoding === 'br' ? asset.br : encoding === 'gzip' ? asset.gzip : asset.identity);
  });
  // Any other path under /app/ is a screen of the app: client routing takes it from index.html.
  app.get('/app/*', { schema }, sendIndex);
};
