// Database access for user accounts; API tokens are stored only as SHA-256 hashes.
import { sql } from 'kysely';
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

export interface UserListFilter {
  /** Digits the user id starts with. */
  idPrefix?: string;
  isActive?: boolean;
  /** Only users listed after this one (newest first: older, or as old with a smaller id). */
  after?: { createdAt: string; userId: number };
}

export type ListedUserRow = UserRow & { subscription_count: number | string | bigint };

/** Newest first (created_at, then user_id, descending), each with its number of subscriptions. */
export function listUsers(db: Executor, filter: UserListFilter, limit: number): Promise<ListedUserRow[]> {
  let query = db
    .selectFrom('users')
    .selectAll('users')
    .select((eb) =>
      eb
        .selectFrom('subscriptions')
        .select(eb.fn.countAll().as('n'))
        .whereRef('subscriptions.user_id', '=', 'users.user_id')
        .as('subscription_count'),
    )
    .orderBy('users.created_at', 'desc')
    .orderBy('users.user_id', 'desc')
    .limit(limit);
  if (filter.idPrefix) query = query.where(sql<string>`cast(users.user_id as text)`, 'like', `${filter.idPrefix}%`);
  if (filter.isActive !== undefined) query = query.where('users.is_active', '=', filter.isActive ? 1 : 0);
  const after = filter.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('users.created_at', '<', after.createdAt),
        eb.and([eb('users.created_at', '=', after.createdAt), eb('users.user_id', '<', after.userId)]),
      ]),
    );
  }
  return query.execute() as Promise<ListedUserRow[]>;
}
