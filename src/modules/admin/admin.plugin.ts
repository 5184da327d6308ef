// Guards everything under /api/v1/admin: enabled only with ADMIN_SECRET, callers on ADMIN_ALLOWED_IPS, every request signed.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { errors } from '../../http/errors.js';
import { IpMatcher } from '../../net/ip.js';
import { SIGNATURE_WINDOW_MS, verifySignature } from './signature.js';
import type { ReplayGuard } from './replay-guard.js';

export interface AdminGuardOptions {
  config: Config;
  replayGuard: ReplayGuard;
}

declare module 'fastify' {
  interface FastifyRequest {
    rawBody: Buffer | null;
  }
}

const EMPTY = Buffer.alloc(0);

/** Installs the guards on the admin plugin's own (encapsulated) scope, before its routes. */
export function guardAdmin(app: FastifyInstance, { config, replayGuard }: AdminGuardOptions): void {
  const allowed = new IpMatcher(config.adminAllowedIps);
  const secret = config.adminSecret;

  app.decorateRequest('rawBody', null);
  // JSON is parsed only after the signature over the raw bytes has been checked (see preValidation below).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    request.rawBody = body as Buffer;
    done(null, undefined);
  });

  app.addHook('onRequest', async (request) => {
    if (!secret) throw errors.adminDisabled();
    if (!allowed.matches(request.clientIp)) {
      throw errors.ipNotAllowed(request.clientIp);
    }
  });

  app.addHook('preValidation', async (request) => {
    await checkSignature(request, secret as string, replayGuard);
    // Bytes moved from the path into the body keep the signed string the same ("DELETE /users/12" + "3" signs like
    // "DELETE /users/123"), so a route that takes no body accepts none, apart from the `{}` many clients send.
    if (!request.is404 && !request.routeOptions.schema?.body && !isEmptyBody(request.rawBody))
      throw errors.unexpectedBody();
    request.body = parseJson(request.rawBody);
  });

  // Unknown paths under the prefix pass the same guards, so they reveal nothing to unsigned callers.
  app.setNotFoundHandler((request, reply) => app.answerNotFound(request, reply));
}

async function checkSignature(request: FastifyRequest, secret: string, replayGuard: ReplayGuard): Promise<void> {
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const signature = header('x-signature')?.trim().toLowerCase();
  const verdict = verifySignature(
    secret,
    {
      timestamp: header('x-timestamp')?.trim() ?? '',
      method: request.method,
      pathWithQuery: request.raw.url ?? request.url,
      body: request.rawBody ?? EMPTY,
    },
    signature,
    Date.now(),
  );
  if (verdict === 'missing_signature') throw errors.missingSignature();
  if (verdict === 'signature_expired') throw errors.signatureExpired();
  if (verdict === 'invalid_signature') throw errors.invalidSignature();
  // A timestamp may be up to one window in the future, so remember the signature for two windows.
  if (!(await replayGuard.firstUse(signature as string, 2 * SIGNATURE_WINDOW_MS))) {
    throw errors.replayedRequest();
  }
}

function isEmptyBody(raw: Buffer | null): boolean {
  return !raw || raw.length === 0 || /^\s*\{\s*\}\s*$/.test(raw.toString('utf8'));
}

function parseJson(raw: Buffer | null): unknown {
  if (!raw || raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw errors.invalidJson();
  }
}
