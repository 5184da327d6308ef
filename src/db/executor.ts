// The handle stores run queries on (the database itself or an open transaction), transactions and the dialect's row lock.
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from './types.js';
import type { Dialect } from './database.js';

export type Executor = Kysely<Database>;

/** Adds FOR UPDATE on PostgreSQL; SQLite serialises write transactions on its own and has no row locks. */
export function lockRows<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  dialect: Dialect,
): SelectQueryBuilder<DB, TB, O> {
  return dialect === 'postgres' ? query.forUpdate() : query;
}

/** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
export function inTransaction<T>(db: Executor, work: (trx: Executor) => Promise<T>): Promise<T> {
  return db.transaction().execute(work);
}
