// Database access for the external source cache: one row per fetch key (URL and fetch options) with its last good content and fetch state.
import { sql } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { lockRows, type Executor } from '../../db/executor.js';
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Database, ExternalCacheTable } from '../../db/types.js';
import { chunks } from '../../db/chunks.js';
import type { Userinfo } from '../../shared/userinfo.js';
import type { Backoff } from './backoff.js';

export type CacheState = Omit<Selectable<ExternalCacheTable>, 'content' | 'parsed' | 'claimed_until' | 'created_at'>;

const STATE_COLUMNS = [
  'url',
  'content_hash',
  'configs_count',
  'fetched_at',
  'last_error',
  'last_attempt_at',
  'shrink_hash',
  'shrink_count',
  'backoff_count',
  'backoff_until',
  'userinfo_upload',
  'userinfo_download',
  'userinfo_total',
  'userinfo_expire',
  'parsed_hash',
  'parsed_version',
] as const;

/** fetchKey() of fetch-options.ts over a sources row, in SQL (`||` concatenates on both dialects). */
const SOURCE_FETCH_KEY = sql<string>`case when ${sql.ref('sources.fetch_options')} is null then ${sql.ref('sources.data')} else ${sql.ref('sources.data')} || ' ' || ${sql.ref('sources.fetch_options')} end`;

/** Fetch state of the given keys (without their content), a bounded list of variables per query. */
export async function findCacheRows(db: Executor, keys: string[]): Promise<CacheState[]> {
  const rows: CacheState[] = [];
  for (const list of chunks(keys)) {
    rows.push(...(await db.selectFrom('external_cache').select(STATE_COLUMNS).where('url', 'in', list).execute()));
  }
  return rows;
}

/** The fetch state of one key, its row locked until the transaction ends (PostgreSQL). */
export function lockCacheRow(db: Executor, dialect: Dialect, key: string): Promise<CacheState | undefined> {
  return lockRows(
    db.selectFrom('external_cache').select(STATE_COLUMNS).where('url', '=', key),
    dialect,
  ).executeTakeFirst();
}

/** Creates missing rows for every fetch key in use (content null until the first good fetch). */
export async function ensureCacheRows(db: Executor, now: string): Promise<void> {
  await db
    .insertInto('external_cache')
    .columns(['url', 'configs_count', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('sources')
        .select([SOURCE_FETCH_KEY.as('url'), sql.lit(0).as('configs_count'), sql.val(now).as('created_at')])
        .where('source_type', '=', 'external_url')
        .distinct(),
    )
    .onConflict((oc) => oc.column('url').doNothing())
    .execute();
}

export async function insertCacheRows(db: Executor, urls: string[], now: string): Promise<void> {
  for (const list of chunks(urls)) {
    await db
      .insertInto('external_cache')
      .values(list.map((url) => ({ url, configs_count: 0, created_at: now })))
      .onConflict((oc) => oc.column('url').doNothing())
      .execute();
  }
}

/**
 * Stores a good fetch: its lines, their hash, and its usage numbers (all null when it carried none). `parsed`: the
 * parse results of the lines made by the parser of `parsed_version`, null when not made, or `keep` when the row holds
 * them for this content already.
 */
export async function recordSuccess(
  db: Executor,
  url: string,
  content: string,
  contentHash: string,
  count: number,
  userinfo: Userinfo | null,
  parsed: { text: string; version: number } | null | 'keep',
  now: string,
): Promise<void> {
  await db
    .updateTable('external_cache')
    .set({
      ...(parsed === 'keep'
        ? {}
        : {
            parsed: parsed?.text ?? null,
            parsed_hash: parsed ? contentHash : null,
            parsed_version: parsed?.version ?? null,
          }),
      content,
      content_hash: contentHash,
      configs_count: count,
      userinfo_upload: userinfo?.upload ?? null,
      userinfo_download: userinfo?.download ?? null,
      userinfo_total: userinfo?.total ?? null,
      userinfo_expire: userinfo?.expire ?? null,
      fetched_at: now,
      last_error: null,
      last_attempt_at: now,
      claimed_until: null,
      shrink_hash: null,
      shrink_count: 0,
      ...NO_BACKOFF,
    })
    .where('url', '=', url)
    .execute();
}

const NO_BACKOFF = { backoff_count: 0, backoff_until: null };

/**
 * A failed fetch: the last good content stays, and a shrunken result held so far is dropped (no longer consecutive).
 * `backoff` after an unparseable body, else none.
 */
export async function recordFailure(
  db: Executor,
  url: string,
  error: string,
  now: string,
  backoff: Backoff | null = null,
): Promise<void> {
  await db
    .updateTable('external_cache')
    .set({
      last_error: error,
      last_attempt_at: now,
      claimed_until: null,
      shrink_hash: null,
      shrink_count: 0,
      ...(backoff ? { backoff_count: backoff.count, backoff_until: backoff.until } : NO_BACKOFF),
    })
    .where('url', '=', url)
    .execute();
}

/** A shrunken result held back by the guard: the fingerprint of its configs and how many times in a row it came. */
export async function recordHeldShrink(
  db: Executor,
  url: string,
  error: string,
  shrink: { hash: string; count: number },
  now: string,
): Promise<void> {
  await db
    .updateTable('external_cache')
    .set({
      last_error: error,
      last_attempt_at: now,
      claimed_until: null,
      shrink_hash: shrink.hash,
      shrink_count: shrink.count,
      ...NO_BACKOFF,
    })
    .where('url', '=', url)
    .execute();
}

/**
 * Atomically claims up to `limit` URLs not attempted since `dueBefore`, not backed off and not claimed by another worker. On
 * PostgreSQL concurrent workers skip each other's locked rows; SQLite has a single writer, so the update is atomic.
 */
export async function claimDue(
  db: Executor,
  dialect: Dialect,
  dueBefore: string,
  claimUntil: string,
  now: string,
  limit: number,
): Promise<string[]> {
  let due = db
    .selectFrom('external_cache')
    .select('url')
    .where((eb) => eb.or([eb('last_attempt_at', 'is', null), eb('last_attempt_at', '<=', dueBefore)]))
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .where(notBackedOff(now))
    .orderBy('last_attempt_at')
    .limit(limit);
  if (dialect === 'postgres') due = due.forUpdate().skipLocked();
  const rows = await db
    .updateTable('external_cache')
    .set({ claimed_until: claimUntil })
    .where('url', 'in', due)
    .returning('url')
    .execute();
  return rows.map((r) => r.url);
}

/** Removes cache rows no source uses any more; returns how many. */
export async function pruneUnused(db: Executor): Promise<number> {
  const result = await db
    .deleteFrom('external_cache')
    .where('url', 'not in', (eb) =>
      eb.selectFrom('sources').select(SOURCE_FETCH_KEY.as('url')).where('source_type', '=', 'external_url'),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Cache rows never attempted or last attempted at or before `dueBefore`, not backed off at `now`, claimed or not. */
export async function countDue(db: Executor, dueBefore: string, now: string): Promise<number> {
  const row = await db
    .selectFrom('external_cache')
    .select((eb) => eb.fn.countAll<number>().as('due'))
    .where((eb) => eb.or([eb('last_attempt_at', 'is', null), eb('last_attempt_at', '<=', dueBefore)]))
    .where(notBackedOff(now))
    .executeTakeFirstOrThrow();
  return Number(row.due);
}

function notBackedOff(now: string) {
  return (eb: ExpressionBuilder<Database, 'external_cache'>) =>
    eb.or([eb('backoff_until', 'is', null), eb('backoff_until', '<=', now)]);
}
