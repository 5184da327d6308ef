// Creating users and issuing their API tokens, shared by the CLI and (later) the admin API.
import { isUniqueViolation } from '../../db/errors.js';
import type { Executor } from '../../db/executor.js';
import { errors } from '../../http/errors.js';
import { findUser, insertUser, setUserTokenHash } from './users.store.js';
import { hashToken, newHash, newToken } from './tokens.js';

export interface CreatedUser {
  user_id: number;
  user_hash: string;
  api_token: string;
  is_active: boolean;
  created_at: string;
}

export async function createUser(db: Executor, userId: number): Promise<CreatedUser> {
  const apiToken = newToken();
  const now = new Date().toISOString();
  const row = {
    user_id: userId,
    user_hash: newHash(),
    token_hash: hashToken(apiToken),
    is_active: 1,
    created_at: now,
    updated_at: now,
  };
  try {
    await insertUser(db, row);
  } catch (error) {
    if (isUniqueViolation(error)) throw errors.userExists();
    throw error;
  }
  return { user_id: userId, user_hash: row.user_hash, api_token: apiToken, is_active: true, created_at: now };
}

/** Issues a new API token; the previous one stops working at once. */
export async function rotateUserToken(db: Executor, userId: number): Promise<{ user_id: number; api_token: string }> {
  if (!(await findUser(db, userId))) throw errors.userNotFound();
  const apiToken = newToken();
  await setUserTokenHash(db, userId, hashToken(apiToken), new Date().toISOString());
  return { user_id: userId, api_token: apiToken };
}
