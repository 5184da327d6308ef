// Database access for the sources of subscriptions.
import type { Executor } from '../../db/executor.js';
import type { NewSource, SourceRow } from '../../db/types.js';

export function listSources(db: Executor, subscriptionToken: string): Promise<SourceRow[]> {
  return db
    .selectFrom('sources')
    .selectAll()
    .where('subscription_token', '=', subscriptionToken)
    .orderBy('order_index')
    .execute();
}

export function findSource(db: Executor, subscriptionToken: string, id: string): Promise<SourceRow | undefined> {
  return db
    .selectFrom('sources')
    .selectAll()
    .where('subscription_token', '=', subscriptionToken)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertSources(db: Executor, rows: NewSource[]): Promise<void> {
  // Chunked so one statement stays far below SQLite's bound-parameter limit.
  for (let i = 0; i < rows.length; i += 50) {
    await db.insertInto('sources').values(rows.slice(i, i + 50)).execute();
  }
}

export async function deleteAllSources(db: Executor, subscriptionToken: string): Promise<void> {
  await db.deleteFrom('sources').where('subscription_token', '=', subscriptionToken).execute();
}

export async function deleteSources(db: Executor, subscriptionToken: string, ids: string[]): Promise<void> {
  await db.deleteFrom('sources').where('subscription_token', '=', subscriptionToken).where('id', 'in', ids).execute();
}

export async function updateSource(
  db: Executor,
  subscriptionToken: string,
  id: string,
  changes: Partial<Pick<SourceRow, 'comment' | 'is_hidden' | 'max_depth' | 'updated_at'>>,
): Promise<void> {
  await db
    .updateTable('sources')
    .set(changes)
    .where('subscription_token', '=', subscriptionToken)
    .where('id', '=', id)
    .execute();
}

/** Internal references held by the given subscriptions: one row per (holder, referenced token). */
export function referencesFrom(
  db: Executor,
  tokens: string[],
): Promise<Array<{ subscription_token: string; ref_token: string | null }>> {
  if (tokens.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('sources')
    .select(['subscription_token', 'ref_token'])
    .where('source_type', '=', 'internal_token')
    .where('subscription_token', 'in', tokens)
    .execute();
}
