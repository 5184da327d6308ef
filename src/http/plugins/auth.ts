// API-Token authentication for user and provider endpoints (DESIGN.md section 7): each kind of token is unknown to the other's routes.
import type { FastifyRequest } from 'fastify';
import type { Executor } from '../../db/executor.js';
import type { ProviderRow, UserRow } from '../../db/types.js';
import { findProviderByTokenHash } from '../../modules/providers/providers.store.js';
import { findUserByTokenHash } from '../../modules/users/users.store.js';
import { hashToken } from '../../shared/tokens.js';
import { errors } from '../errors.js';

export const TOKEN_HEADER = 'api-token';

/** The presented API token, or a 401 missing_token. */
export function presentedToken(request: FastifyRequest): string {
  const header = request.headers[TOKEN_HEADER];
  const token = Array.isArray(header) ? header[0] : header;
  if (!token || token.trim() === '') throw errors.missingToken();
  return token.trim();
}

/** Resolves the calling user from API-Token, or throws 401/403. */
export async function authenticateUser(db: Executor, request: FastifyRequest): Promise<UserRow> {
  const token = presentedToken(request);
  const user = await findUserByTokenHash(db, hashToken(token));
  if (!user) throw errors.invalidToken();
  if (user.is_active !== 1) throw errors.accountDisabled();
  request.caller = { kind: 'user', userId: user.user_id };
  return user;
}

/** Resolves the calling provider from API-Token, or throws 401/403. */
export async function authenticateProvider(db: Executor, request: FastifyRequest): Promise<ProviderRow> {
  const token = presentedToken(request);
  const provider = await findProviderByTokenHash(db, hashToken(token));
  if (!provider) throw errors.invalidToken();
  if (provider.is_active !== 1) throw errors.accountDisabled();
  request.caller = { kind: 'provider', providerHash: provider.provider_hash, providerName: provider.provider_name };
  return provider;
}
