// The browser session cookie and the Origin rule that guards its unsafe requests (docs/security.md, "Browser sessions").
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'subweave_session';
/** Seven days: the cookie's Max-Age, and how far each use slides the session's expiry. */
export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 3600;
/** A cookie value as issued (32 random bytes, base64url); anything else is never looked up. */
const SESSION_VALUE = /^[A-Za-z0-9_-]{43}$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by authentication when it slid the session's expiry: the cookie is sent again with the answer. */
    renewedSession: string | null;
  }
}

/** The session cookie's value when the request carries a well-formed one, else null. */
export function readSessionCookie(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== SESSION_COOKIE) continue;
    const value = pair.slice(at + 1).trim();
    return SESSION_VALUE.test(value) ? value : null;
  }
  return null;
}

/** `Set-Cookie` for `value` (Max-Age 7 days), or the one that clears the cookie when `value` is null. */
export function sessionCookieHeader(value: string | null, secure: boolean): string {
  const parts = [
    `${SESSION_COOKIE}=${value ?? ''}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${value === null ? 0 : SESSION_MAX_AGE_SECONDS}`,
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

export interface OriginRule {
  /** The origin of PUBLIC_BASE_URL when it was set; null: accept the request's own `http://<Host>` instead. */
  origin: string | null;
  /** Whether cookies carry `Secure` (PUBLIC_BASE_URL is https). */
  secure: boolean;
}

export function originRule(publicBaseUrl: string, explicit: boolean): OriginRule {
  const url = new URL(publicBaseUrl);
  return { origin: explicit ? url.origin : null, secure: url.protocol === 'https:' };
}

/** Whether the method changes nothing, so a cross-site request with it can do no harm. */
export const isSafeMethod = (method: string): boolean => SAFE_METHODS.has(method);

/**
 * Whether the request's `Origin` is the service's own: PUBLIC_BASE_URL's origin, or (when PUBLIC_BASE_URL is not
 * set) `http://` and the Host header. A missing Origin and `Origin: null` never are.
 */
export function sameOrigin(request: FastifyRequest, rule: OriginRule): boolean {
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || origin === '' || origin === 'null') return false;
  if (rule.origin !== null) return origin === rule.origin;
  const host = request.headers.host;
  if (!host) return false;
  try {
    return origin === new URL(`http://${host}`).origin;
  } catch {
    return false;
  }
}

/** Sends the cookie again with every answer whose authentication slid the session (install on the root, before routes). */
export function installSessionRenewal(app: FastifyInstance, secure: boolean): void {
  app.decorateRequest('renewedSession', null);
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.renewedSession !== null)
      reply.header('set-cookie', sessionCookieHeader(request.renewedSession, secure));
    done(null, payload);
  });
}
