// Database access for user accounts; API tokens are stored only as SHA-256 hashes.
import type { Executor } from '../../db/executor.js';
import type { UserRow } from '../../db/types.js';

export function findUserByTokenHash(db: Executor, tokenHash: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export function findUser(db: Executor, userId: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function insertUser(db: Executor, row: UserRow): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

export async function setUserTokenHash(db: Executor, userId: number, tokenHash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ token_hash: tokenHash, updated_at: now })
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
