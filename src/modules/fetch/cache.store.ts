// Database access for the external source cache: one row per URL with its last good content and fetch state.
import { sql } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Executor } from '../../db/executor.js';
import type { Selectable } from 'kysely';
import type { ExternalCacheTable } from '../../db/types.js';
import { chunks } from '../../db/chunks.js';
import type { Userinfo } from '../../shared/userinfo.js';

export type CacheState = Omit<Selectable<ExternalCacheTable>, 'content' | 'claimed_until' | 'created_at'>;

/** Fetch state of the given URLs (without their content), a bounded list of variables per query. */
export async function findCacheRows(db: Executor, urls: string[]): Promise<CacheState[]> {
  const rows: CacheState[] = [];
  for (const list of chunks(urls)) {
    rows.push(
      ...(await db
        .selectFrom('external_cache')
        .select([
          'url',
          'content_hash',
          'configs_count',
          'fetched_at',
          'last_error',
          'last_attempt_at',
          'userinfo_upload',
          'userinfo_download',
          'userinfo_total',
          'userinfo_expire',
        ])
        .where('url', 'in', list)
        .execute()),
    );
  }
  return rows;
}

/** Creates missing rows for every external URL in use (content null until the first good fetch). */
export async function ensureCacheRows(db: Executor, now: string): Promise<void> {
  await db
    .insertInto('external_cache')
    .columns(['url', 'configs_count', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('sources')
        .select(['data', sql.lit(0).as('configs_count'), sql.val(now).as('created_at')])
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

/** Stores a good fetch: its lines, their hash, and its usage numbers (all null when it carried none). */
export async function recordSuccess(
  db: Executor,
  url: string,
  content: string,
  contentHash: string,
  count: number,
  userinfo: Userinfo | null,
  now: string,
): Promise<void> {
  await db
    .updateTable('external_cache')
    .set({
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
    })
    .where('url', '=', url)
    .execute();
}

export async function recordFailure(db: Executor, url: string, error: string, now: string): Promise<void> {
  await db
    .updateTable('external_cache')
    .set({ last_error: error, last_attempt_at: now, claimed_until: null })
    .where('url', '=', url)
    .execute();
}

/**
 * Atomically claims up to `limit` URLs not attempted since `dueBefore` and not claimed by another worker. On
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
    .where('url', 'not in', (eb) => eb.selectFrom('sources').select('data').where('source_type', '=', 'external_url'))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
