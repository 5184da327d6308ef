// API-Token authentication for user and provider endpoints (DESIGN.md section 7): each kind of token is unknown to the other's routes.
import type { FastifyRequest } from 'fastify';
import type { ProviderCaller, UserCaller } from '../caller.js';
import { errors } from '../errors.js';

export const TOKEN_HEADER = 'api-token';

/** Who holds an API token: answered by the users and providers services, so http/ knows no table and no hashing. */
export interface TokenLookups {
  userByToken(token: string): Promise<{ user_id: number; is_active: boolean } | undefined>;
  providerByToken(
    token: string,
  ): Promise<{ provider_hash: string; provider_name: string; is_active: boolean } | undefined>;
}

/** Resolves the caller from API-Token and sets `request.caller`, or throws 401/403. */
export interface Authenticator {
  user(request: FastifyRequest): Promise<UserCaller>;
  provider(request: FastifyRequest): Promise<ProviderCaller>;
}

/** The presented API token, or a 401 missing_token. */
function presentedToken(request: FastifyRequest): string {
  const header = request.headers[TOKEN_HEADER];
  const token = Array.isArray(header) ? header[0] : header;
  if (!token || token.trim() === '') throw errors.missingToken();
  return token.trim();
}

export function createAuthenticator(lookups: TokenLookups): Authenticator {
  return {
    async user(request) {
      const user = await lookups.userByToken(presentedToken(request));
      if (!user) throw errors.invalidToken();
      if (!user.is_active) throw errors.accountDisabled();
      const caller: UserCaller = { kind: 'user', userId: user.user_id };
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
