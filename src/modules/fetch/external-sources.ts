// Keeps the external source cache fresh: one in-flight fetch per URL, stale-on-error, and the empty/shrink guard.
import type { DatabaseHandle } from '../../db/database.js';
import type { ChangeLog } from '../../changes/change-log.js';
import { claimDue, ensureCacheRows, findCacheRows, insertCacheRows, pruneUnused, recordFailure, recordSuccess } from './cache.store.js';

export type UpstreamResult = { ok: true; lines: string[] } | { ok: false; error: string };

export interface Upstream {
  fetch(url: string): Promise<UpstreamResult>;
}

export type RefreshOutcome = { ok: true; count: number } | { ok: false; error: string };

/** A fetch with fewer than this share of the last good lines (when there were at least SHRINK_MIN) is refused. */
const SHRINK_RATIO = 0.3;
const SHRINK_MIN = 10;
const CONCURRENCY = 4;

export class ExternalSources {
  private readonly inFlight = new Map<string, Promise<RefreshOutcome>>();

  constructor(
    private readonly database: DatabaseHandle,
    private readonly upstream: Upstream,
    private readonly changes: ChangeLog,
  ) {}

  /** Fetches `url` now; concurrent callers for the same URL share one fetch. */
  refresh(url: string): Promise<RefreshOutcome> {
    const shared = this.inFlight.get(url);
    if (shared) return shared;
    const pending = this.fetchAndStore(url).finally(() => this.inFlight.delete(url));
    this.inFlight.set(url, pending);
    return pending;
  }

  /** First fetch of URLs the cache has never attempted (called after sources are added). */
  async fetchNew(urls: string[]): Promise<void> {
    if (urls.length === 0) return;
    const now = new Date().toISOString();
    await insertCacheRows(this.database.db, urls, now);
    const rows = await findCacheRows(this.database.db, urls);
    const fresh = rows.filter((r) => r.last_attempt_at === null).map((r) => r.url);
    await forEachLimited(fresh, CONCURRENCY, (url) => this.refresh(url));
  }

  /**
   * One pass of the background refresher: refreshes every URL in use that is due; returns how many were fetched.
   * Claims nothing more once `keepClaiming` answers false (shutdown).
   */
  async refreshDue(intervalSeconds: number, claimSeconds: number, keepClaiming: () => boolean = () => true): Promise<number> {
    const { db, dialect } = this.database;
    const nowMs = Date.now();
    const now = new Date(nowMs).toISOString();
    // Prune first: a URL no source uses any more must not be fetched again (it is "in use" no longer).
    await pruneUnused(db);
    await ensureCacheRows(db, now);
    let total = 0;
    while (keepClaiming()) {
      const claimed = await claimDue(
        db,
        dialect,
        new Date(nowMs - intervalSeconds * 1000).toISOString(),
        new Date(Date.now() + claimSeconds * 1000).toISOString(),
        new Date().toISOString(),
        CONCURRENCY * 4,
      );
      if (claimed.length === 0) break;
      await forEachLimited(claimed, CONCURRENCY, (url) => this.refresh(url));
      total += claimed.length;
    }
    return total;
  }

  private async fetchAndStore(url: string): Promise<RefreshOutcome> {
    const { db } = this.database;
    const result = await this.upstream.fetch(url).catch((error: unknown) => ({
      ok: false as const,
      error: error instanceof Error ? error.message : String(error),
    }));
    const now = new Date().toISOString();
    await insertCacheRows(db, [url], now);
    const [previous] = await findCacheRows(db, [url]);
    const problem = result.ok ? guardProblem(result.lines, previous?.content ? previous.configs_count : 0) : result.error;
    if (!result.ok || problem) {
      const error = problem ?? 'unknown error';
      await recordFailure(db, url, error, now);
      return { ok: false, error };
    }
    const content = result.lines.join('\n');
    await this.changes.write(async (trx, record) => {
      await recordSuccess(trx, url, content, result.lines.length, now);
      if (content !== previous?.content) record({ kind: 'url', url });
    });
    return { ok: true, count: result.lines.length };
  }
}

/** The empty/shrink guard of DESIGN.md section 6: why a fetched list must not replace the last good one, or null. */
function guardProblem(lines: string[], previousCount: number): string | null {
  if (lines.length === 0) return 'upstream returned no proxy configs';
  if (previousCount >= SHRINK_MIN && lines.length < previousCount * SHRINK_RATIO) {
    return `upstream shrank from ${previousCount} to ${lines.length} configs; kept the previous content`;
  }
  return null;
}

async function forEachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++] as T);
  });
  await Promise.all(runners);
}
