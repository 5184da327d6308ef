// API-Token authentication for user endpoints (DESIGN.md section 7); providers plug in the same way later.
import type { FastifyRequest } from 'fastify';
import type { Executor } from '../../db/executor.js';
import type { UserRow } from '../../db/types.js';
import { findUserByTokenHash } from '../../modules/users/users.store.js';
import { hashToken } from '../../modules/users/tokens.js';
import { errors } from '../errors.js';

export const TOKEN_HEADER = 'api-token';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who authenticated, e.g. `user:42` or `provider:<hash>`; null until then. Rate limits key on it. */
    credential: string | null;
  }
}

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
  request.credential = `user:${user.user_id}`;
  return user;
}
