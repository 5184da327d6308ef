// OpenAPI document (/openapi.json) and its browsable UI (/docs), generated from the route schemas.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { IpMatcher } from '../net/ip.js';
import { routeDefaults } from './route-defaults.js';

export async function registerDocs(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'subweave API',
        version: config.version,
        description:
          'Named proxy subscriptions served at one public link. Every non-2xx response is `{error, message, details}`.',
      },
      servers: [{ url: config.publicBaseUrl, description: 'PUBLIC_BASE_URL' }],
      components: {
        securitySchemes: {
          apiToken: { type: 'apiKey', in: 'header', name: 'API-Token', description: 'User or provider API token.' },
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'subweave_session',
            description:
              'Browser session (POST /api/v1/session), user routes only. POST, PUT, PATCH and DELETE must carry an ' +
              "Origin equal to PUBLIC_BASE_URL's (403 bad_origin).",
          },
          adminSignature: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Signature',
            description:
              'Admin API (/api/v1/admin, callers on ADMIN_ALLOWED_IPS only). Lowercase hex HMAC-SHA256 keyed with ' +
              'ADMIN_SECRET over the concatenation, without separators, of: the X-Timestamp value, the upper-case ' +
              'method, the request path exactly as sent (with `?` and the raw query string when there is one), and ' +
              'the raw body bytes (nothing for no body). Each signature is accepted once. See docs/admin-api.md.',
          },
          adminTimestamp: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Timestamp',
            description:
              'Admin API: Unix time in milliseconds when the request was signed; refused (401 signature_expired) ' +
              'when more than 60 s away from the server clock. Sent together with X-Signature.',
          },
        },
      },
    },
  });
  // Swagger itself stays on the root (it collects every route); the routes serving the docs are infra.
  const headers = docsHeaders(config.publicBaseUrl);
  const withOrigin = withOpenedOrigin(config);
  await app.register(async (docs) => {
    routeDefaults(docs, { kind: 'infra' });
    docs.addHook('onSend', (_request, reply, payload, done) => {
      reply.headers(headers);
      done(null, payload);
    });
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      transformSpecification: (document, request) => withOrigin(document as OpenApiDocument, request),
    });
    docs.get('/openapi.json', { schema: { hide: true } }, async (request) =>
      withOrigin(structuredClone(app.swagger()) as OpenApiDocument, request),
    );
  });
}

/**
 * The document with a second server, the origin the docs were opened from (when it differs from PUBLIC_BASE_URL), so
 * "Try it out" works on another host or port too (a LAN address, an SSH tunnel). The scheme is the socket's, or
 * `X-Forwarded-Proto` when a TRUST_PROXY address sent it; a Host header that is not a bare host[:port] adds nothing.
 */
type OpenApiDocument = { servers?: Array<{ url: string; description?: string }> };

function withOpenedOrigin(config: Config) {
  const trusted = new IpMatcher(config.trustProxy);
  const configured = new URL(config.publicBaseUrl).origin;
  return (document: OpenApiDocument, request: FastifyRequest): OpenApiDocument => {
    const origin = openedOrigin(request, trusted);
    if (origin === null || origin === configured) return document;
    return { ...document, servers: [...(document.servers ?? []), { url: origin, description: 'this page' }] };
  };
}

function openedOrigin(request: FastifyRequest, trusted: IpMatcher): string | null {
  const host = request.headers.host;
  const forwarded = request.headers['x-forwarded-proto'];
  const encrypted = 'encrypted' in request.raw.socket && request.raw.socket.encrypted === true;
  let scheme = encrypted ? 'https' : 'http';
  if ((forwarded === 'https' || forwarded === 'http') && trusted.matches(request.raw.socket.remoteAddress ?? '')) {
    scheme = forwarded;
  }
  if (!host || !/^[A-Za-z0-9.:[\]-]+$/.test(host)) return null;
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return null;
  }
}

/**
 * Headers of every answer under /docs (and of /openapi.json): Swagger UI's page runs only its own same-origin files,
 * none inline, so 'self' is all its scripts and styles need; its stylesheet draws icons from data: URLs, and "Try it
 * out" calls the API at PUBLIC_BASE_URL, which may be another origin than the one the page was opened on.
 */
export function docsHeaders(publicBaseUrl: string): Record<string, string> {
  const api = new URL(publicBaseUrl).origin;
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ${api}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'content-security-policy': csp,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}
