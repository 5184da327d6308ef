// Database access for user accounts; API tokens are stored only as SHA-256 hashes.
import type { Dialect } from '../../db/database.js';
import { lockRows, type Executor } from '../../db/executor.js';
import type { UserRow } from '../../db/types.js';

export function findUserByTokenHash(db: Executor, tokenHash: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export function findUser(db: Executor, userId: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export function findUserByHash(db: Executor, userHash: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('user_hash', '=', userHash).executeTakeFirst();
}

/** Locks the user's row until the transaction ends (PostgreSQL); false when there is no such user. */
export async function lockUser(db: Executor, dialect: Dialect, userId: number): Promise<boolean> {
  const row = await lockRows(
    db.selectFrom('users').select('user_id').where('user_id', '=', userId),
    dialect,
  ).executeTakeFirst();
  return row !== undefined;
}

export async function insertUser(db: Executor, row: UserRow): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

/** True when the row was inserted (there was none). */
export async function insertUserIfMissing(db: Executor, row: UserRow): Promise<boolean> {
  const result = await db
    .insertInto('users')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function setUserTokenHash(db: Executor, userId: number, tokenHash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ token_hash: tokenHash, updated_at: now })
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function setUserActive(db: Executor, userId: number, isActive: boolean, now: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ is_active: isActive ? 1 : 0, updated_at: now })
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes the user; foreign keys cascade to subscriptions, sources, connections and an owned provider. */
export async function deleteUserRow(db: Executor, userId: number): Promise<boolean> {
  const result = await db.deleteFrom('users').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
