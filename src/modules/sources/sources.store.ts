// Database access for the sources of subscriptions.
import { chunks } from '../../db/chunks.js';
import type { Executor } from '../../db/executor.js';
import type { NewSource, SourceRow } from '../../db/types.js';
import { configForm } from './config-form.js';

export function listSources(db: Executor, subscriptionToken: string): Promise<SourceRow[]> {
  return db
    .selectFrom('sources')
    .selectAll()
    .where('subscription_token', '=', subscriptionToken)
    .orderBy('order_index')
    .execute();
}

/** The sources of several subscriptions in one query (the list's health summary). */
export function listSourcesOf(db: Executor, subscriptionTokens: readonly string[]): Promise<SourceRow[]> {
  if (subscriptionTokens.length === 0) return Promise.resolve([]);
  return db.selectFrom('sources').selectAll().where('subscription_token', 'in', subscriptionTokens).execute();
}

export function findSource(db: Executor, subscriptionToken: string, id: string): Promise<SourceRow | undefined> {
  return db
    .selectFrom('sources')
    .selectAll()
    .where('subscription_token', '=', subscriptionToken)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Configs without a parsed form (new ones) get theirs; rows copied from other rows keep what they hold. */
export async function insertSources(db: Executor, rows: NewSource[]): Promise<void> {
  const formed = rows.map((row) =>
    row.source_type === 'config' && row.parsed_version === undefined
      ? { ...row, ...configForm(row.data, row.comment ?? null) }
      : row,
  );
  // Chunked so one statement stays far below SQLite's bound-parameter limit.
  for (let i = 0; i < formed.length; i += 50) {
    await db
      .insertInto('sources')
      .values(formed.slice(i, i + 50))
      .execute();
  }
}

export async function deleteAllSources(db: Executor, subscriptionToken: string): Promise<void> {
  await db.deleteFrom('sources').where('subscription_token', '=', subscriptionToken).execute();
}

export async function deleteSources(db: Executor, subscriptionToken: string, ids: string[]): Promise<void> {
  for (const list of chunks(ids)) {
    await db
      .deleteFrom('sources')
      .where('subscription_token', '=', subscriptionToken)
      .where('id', 'in', list)
      .execute();
  }
}

export async function updateSource(
  db: Executor,
  subscriptionToken: string,
  id: string,
  changes: Partial<
    Pick<
      SourceRow,
      'comment' | 'is_hidden' | 'max_depth' | 'updated_at' | 'line' | 'parsed' | 'parsed_comment' | 'parsed_version'
    >
  >,
): Promise<void> {
  await db
    .updateTable('sources')
    .set(changes)
    .where('subscription_token', '=', subscriptionToken)
    .where('id', '=', id)
    .execute();
}

/** Internal references held by the given subscriptions: one row per (holder, referenced token). */
export async function referencesFrom(
  db: Executor,
  tokens: string[],
): Promise<Array<{ subscription_token: string; ref_token: string | null }>> {
  const rows: Array<{ subscription_token: string; ref_token: string | null }> = [];
  for (const list of chunks(tokens)) {
    rows.push(
      ...(await db
        .selectFrom('sources')
        .select(['subscription_token', 'ref_token'])
        .where('source_type', '=', 'internal_token')
        .where('subscription_token', 'in', list)
        .execute()),
    );
  }
  return rows;
}

/** Tokens of the subscriptions holding a reference to `token`. */
export async function referenceHolders(db: Executor, token: string): Promise<string[]> {
  const rows = await db
    .selectFrom('sources')
    .select('subscription_token')
    .distinct()
    .where('source_type', '=', 'internal_token')
    .where('ref_token', '=', token)
    .execute();
  return rows.map((row) => row.subscription_token);
}

/** Points every reference to `from` at `to`, with the id that goes with it; comment, hidden and depth stay. */
export async function retargetReferences(
  db: Executor,
  from: string,
  to: string,
  id: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('sources')
    .set({ data: to, ref_token: to, id, updated_at: now })
    .where('source_type', '=', 'internal_token')
    .where('ref_token', '=', from)
    .execute();
}
