// API-Token authentication for user and provider endpoints (docs/api.md), and the browser session cookie for user
// endpoints only (docs/security.md): each kind of token is unknown to the other's routes.
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { ProviderCaller, UserCaller } from '../caller.js';
import { errors } from '../errors.js';
import { isSafeMethod, readSessionCookie, sameOrigin, type OriginRule } from '../session-cookie.js';

export const TOKEN_HEADER = 'api-token';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads a credential from its body (sign-in): rate limiting treats it like a presented token. */
    credentialInBody?: boolean;
  }
}

/** A live browser session as the sessions service answers it; `renewed`: its expiry slid on this use. */
export interface SessionLookup {
  user_id: number;
  is_active: boolean;
  renewed: boolean;
}

/** Who holds an API token or a session: answered by the services, so http/ knows no table and no hashing. */
export interface TokenLookups {
  userByToken(token: string): Promise<{ user_id: number; is_active: boolean } | undefined>;
  providerByToken(
    token: string,
  ): Promise<{ provider_hash: string; provider_name: string; is_active: boolean } | undefined>;
  userBySession(value: string): Promise<SessionLookup | undefined>;
}

/** Resolves the caller from API-Token (or, for users, the session cookie) and sets `request.caller`, or throws 401/403. */
export interface Authenticator {
  user(request: FastifyRequest): Promise<UserCaller>;
  provider(request: FastifyRequest): Promise<ProviderCaller>;
}

/** The API-Token header's value, or null when there is none (or only blanks). */
export function headerToken(request: FastifyRequest): string | null {
  const header = request.headers[TOKEN_HEADER];
  const token = (Array.isArray(header) ? header[0] : header)?.trim();
  return token ? token : null;
}

/** The presented API token, or a 401 missing_token. */
function presentedToken(request: FastifyRequest): string {
  const token = headerToken(request);
  if (token === null) throw errors.missingToken();
  return token;
}

/**
 * Whether the request presents a credential a failed check of would answer 401 to (an API token, a session cookie
 * or a sign-in body): rate limiting lets such requests through until they fail (src/modules/abuse/abuse.hooks.ts).
 */
export function presentsCredential(request: FastifyRequest): boolean {
  return (
    headerToken(request) !== null ||
    readSessionCookie(request) !== null ||
    request.routeOptions.config.credentialInBody === true
  );
}

/** A stand-in rate-limit key for the credential of a request not yet authenticated: a hash, never the secret. */
export function credentialDigest(request: FastifyRequest): string | null {
  const token = headerToken(request);
  if (token !== null) return `token:${sha256(token)}`;
  const session = readSessionCookie(request);
  return session === null ? null : `session:${sha256(session)}`;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function createAuthenticator(lookups: TokenLookups, origins: OriginRule): Authenticator {
  /** The session cookie, when no API-Token came: API-Token always wins. */
  async function sessionUser(request: FastifyRequest): Promise<UserCaller> {
    const session = readSessionCookie(request);
    if (session === null) throw errors.missingToken();
    // Checked before the session is looked up: a forged cross-site write costs no query.
    if (!isSafeMethod(request.method) && !sameOrigin(request, origins)) throw errors.badOrigin();
    const found = await lookups.userBySession(session);
    if (!found) throw errors.invalidSession();
    if (!found.is_active) throw errors.accountDisabled();
    if (found.renewed) request.renewedSession = session;
    return { kind: 'user', userId: found.user_id };
  }

  return {
    async user(request) {
      let caller: UserCaller;
      const token = headerToken(request);
      if (token === null) caller = await sessionUser(request);
      else {
        const user = await lookups.userByToken(token);
        if (!user) throw errors.invalidToken();
        if (!user.is_active) throw errors.accountDisabled();
        caller = { kind: 'user', userId: user.user_id };
      }
      request.caller = caller;
      return caller;
    },
    async provider(request) {
      const provider = await lookups.providerByToken(presentedToken(request));
      if (!provider) throw errors.invalidToken();
      if (!provider.is_active) throw errors.accountDisabled();
      const caller: ProviderCaller = {
        kind: 'provider',
        providerHash: provider.provider_hash,
        providerName: provider.provider_name,
      };
      request.caller = caller;
      return caller;
    },
  };
}
