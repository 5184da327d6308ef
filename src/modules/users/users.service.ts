// Creating, reading, (de)activating and deleting users and issuing their API tokens, shared by the CLI and the admin API.
import type { DatabaseHandle } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Executor } from '../../db/executor.js';
import type { UserRow } from '../../db/types.js';
import { errors } from '../../http/errors.js';
import type { ChangeLog } from '../../changes/change-log.js';
import {
  deleteUserRow,
  findUser,
  findUserByHash,
  findUserByTokenHash,
  insertUser,
  insertUserIfMissing,
  listUsers,
  lockUser,
  setUserActive,
  setUserTokenHash,
} from './users.store.js';
import { tokensGoneWithUser } from '../subscriptions/subscriptions.store.js';
import { endUserSessions } from '../sessions/sessions.store.js';
import { startSession, type StartedSession } from '../sessions/sessions.service.js';
import { hashToken, newHash, newToken } from '../../shared/tokens.js';
import type { Emit } from '../../events/event-types.js';
import { writeWithEvents } from '../../events/outbox.js';
import { userEvent } from '../../events/subjects.js';

export interface UserView {
  user_id: number;
  user_hash: string;
  is_active: boolean;
  created_at: string;
}

export interface ListedUser extends UserView {
  subscription_count: number;
}

export interface UserListQuery {
  search?: string;
  status?: 'active' | 'disabled';
  cursor?: string;
  limit?: number;
}

/** A cursor names the last user of a page by its creation time and id, so deletes between pages skip nobody. */
const encodeCursor = (user: UserView): string =>
  Buffer.from(`${user.created_at}|${user.user_id}`).toString('base64url');

function decodeCursor(cursor: string): { createdAt: string; userId: number } {
  const [createdAt, id, ...rest] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!createdAt || !id || rest.length > 0 || !/^[1-9]\d{0,15}$/.test(id)) {
    throw errors.validation('The cursor is not one this endpoint returned.', [
      { path: 'query.cursor', message: 'must be the next_cursor of a previous page' },
    ]);
  }
  return { createdAt, userId: Number(id) };
}

export interface CreatedUser extends UserView {
  api_token: string;
}

export function userView(row: UserRow): UserView {
  return { user_id: row.user_id, user_hash: row.user_hash, is_active: row.is_active === 1, created_at: row.created_at };
}

function newUserRow(userId: number): { row: UserRow; apiToken: string } {
  const apiToken = newToken();
  const now = new Date().toISOString();
  return {
    apiToken,
    row: {
      user_id: userId,
      user_hash: newHash(),
      token_hash: hashToken(apiToken),
      is_active: 1,
      created_at: now,
      updated_at: now,
    },
  };
}

export async function createUser(db: Executor, userId: number): Promise<CreatedUser> {
  const { row, apiToken } = newUserRow(userId);
  try {
    await writeWithEvents(db, async (trx, emit) => {
      await insertUser(trx, row);
      emit(userEvent('user.created', userId));
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw errors.userExists();
    throw error;
  }
  return { ...userView(row), api_token: apiToken };
}

/**
 * Creates an active account for `userId` unless one exists (a provider's connection request does this). Nobody
 * learns the generated token: the user gets one through `users token` or the admin API.
 */
export async function ensureUser(db: Executor, userId: number, emit: Emit): Promise<void> {
  if (await insertUserIfMissing(db, newUserRow(userId).row)) emit(userEvent('user.created', userId));
}

/** Issues a new API token; the previous one stops working at once, and so does every browser session. */
export async function rotateUserToken(db: Executor, userId: number): Promise<{ user_id: number; api_token: string }> {
  if (!(await findUser(db, userId))) throw errors.userNotFound();
  const apiToken = newToken();
  await setUserTokenHash(db, userId, hashToken(apiToken), new Date().toISOString());
  await endUserSessions(db, userId);
  return { user_id: userId, api_token: apiToken };
}

/** The admin's view of accounts: every change that alters public output is recorded in the change log. */
export class UsersService {
  constructor(
    private readonly database: DatabaseHandle,
    private readonly changes: ChangeLog,
  ) {}

  create(userId: number): Promise<CreatedUser> {
    return createUser(this.database.db, userId);
  }

  async get(userId: number): Promise<UserView> {
    const user = await this.find(userId);
    if (!user) throw errors.userNotFound();
    return user;
  }

  async find(userId: number): Promise<UserView | undefined> {
    const row = await findUser(this.database.db, userId);
    return row && userView(row);
  }

  /** A page of users, newest first; `next_cursor` is null on the last page. */
  async list(query: UserListQuery): Promise<{ users: ListedUser[]; next_cursor: string | null }> {
    const limit = query.limit ?? 50;
    const rows = await listUsers(
      this.database.db,
      {
        ...(query.search ? { idPrefix: query.search } : {}),
        ...(query.status ? { isActive: query.status === 'active' } : {}),
        ...(query.cursor ? { after: decodeCursor(query.cursor) } : {}),
      },
      limit,
    );
    const users = rows.map((row) => ({ ...userView(row), subscription_count: Number(row.subscription_count) }));
    const last = users.at(-1);
    return { users, next_cursor: users.length === limit && last ? encodeCursor(last) : null };
  }

  async findByHash(userHash: string): Promise<UserView | undefined> {
    const row = await findUserByHash(this.database.db, userHash);
    return row && userView(row);
  }

  /** The holder of an API token (authentication). */
  async findByToken(token: string): Promise<UserView | undefined> {
    const row = await findUserByTokenHash(this.database.db, hashToken(token));
    return row && userView(row);
  }

  async setActive(userId: number, isActive: boolean): Promise<UserView> {
    // Their links, and every link that includes one of their subscriptions, change at once.
    await this.changes.write(async (trx, record, emit) => {
      if (!(await setUserActive(trx, userId, isActive, new Date().toISOString()))) throw errors.userNotFound();
      if (!isActive) await endUserSessions(trx, userId);
      record({ kind: 'user', userId });
      emit(userEvent(isActive ? 'user.enabled' : 'user.disabled', userId, { changed: ['is_active'] }));
    });
    return this.get(userId);
  }

  refreshToken(userId: number): Promise<{ user_id: number; api_token: string }> {
    return this.changes.write(async (trx, record, emit) => {
      record({ kind: 'user', userId });
      emit(userEvent('user.token_refreshed', userId));
      return rotateUserToken(trx, userId);
    });
  }

  /**
   * A user refreshing their own token (POST /api/v1/me/refresh-token): as refreshToken, but only for an account that
   * is still active, and with `keepSignedIn` a fresh session for the browser that asked, started after every other
   * session ended (docs/security.md, "Browser sessions").
   */
  refreshOwnToken(
    userId: number,
    keepSignedIn: boolean,
  ): Promise<{ api_token: string; session: StartedSession | null }> {
    return this.changes.write(async (trx, record, emit) => {
      // Held until commit, so a concurrent disable or delete either lands first and is seen, or ends the new session.
      if (!(await lockUser(trx, this.database.dialect, userId))) throw errors.invalidToken();
      if ((await findUser(trx, userId))?.is_active !== 1) throw errors.accountDisabled();
      record({ kind: 'user', userId });
      emit(userEvent('user.token_refreshed', userId));
      const { api_token } = await rotateUserToken(trx, userId);
      return { api_token, session: keepSignedIn ? await startSession(trx, userId) : null };
    });
  }

  async delete(userId: number): Promise<void> {
    await this.changes.write(async (trx, record, emit) => {
      // Holding the user's row keeps a concurrent subscription create from slipping past the token list.
      if (!(await lockUser(trx, this.database.dialect, userId))) throw errors.userNotFound();
      const tokens = await tokensGoneWithUser(trx, userId);
      await endUserSessions(trx, userId);
      await deleteUserRow(trx, userId);
      record({ kind: 'user', userId });
      for (const token of tokens) record({ kind: 'subscription', token });
      emit(userEvent('user.deleted', userId, { subscriptions_deleted: tokens.length }));
    });
  }
}
