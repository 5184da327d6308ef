// Reads and writes of the change_log table: appends inside a writer's transaction, reads by id, prunes by age.
import type { Executor } from '../db/executor.js';
import type { ChangeKind } from '../db/column-values.js';

export interface LoggedChange {
  id: number;
  kind: string;
  subject: string;
}

/** Returns the new entries' ids. */
export async function appendChanges(
  db: Executor,
  rows: Array<{ kind: ChangeKind; subject: string }>,
  now: string,
): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insertInto('change_log')
    .values(rows.map((row) => ({ ...row, created_at: now })))
    .returning('id')
    .execute();
  return inserted.map((row) => Number(row.id));
}

export async function changesWithIds(db: Executor, ids: number[]): Promise<LoggedChange[]> {
  return db.selectFrom('change_log').select(['id', 'kind', 'subject']).where('id', 'in', ids).orderBy('id').execute();
}

export async function changesAfter(db: Executor, afterId: number, limit: number): Promise<LoggedChange[]> {
  return db
    .selectFrom('change_log')
    .select(['id', 'kind', 'subject'])
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function lastChangeId(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('change_log')
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0);
}

export async function pruneChanges(db: Executor, before: string): Promise<void> {
  await db.deleteFrom('change_log').where('created_at', '<', before).execute();
}
