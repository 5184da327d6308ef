// Keeps the external source cache fresh: one in-flight fetch per URL, FETCH_CONCURRENCY per process, stale-on-error, and the empty/shrink guard.
import { createHash } from 'node:crypto';
import type { DatabaseHandle } from '../../db/database.js';
import type { ChangeLog } from '../../changes/change-log.js';
import { isDatabaseUnavailable } from '../../db/errors.js';
import { lineIdentity } from '../resolve/resolver.js';
import {
  claimDue,
  ensureCacheRows,
  findCacheRows,
  insertCacheRows,
  pruneUnused,
  recordFailure,
  recordSuccess,
  type CacheState,
} from './cache.store.js';
import { FetchSlots } from './fetch-slots.js';
import type { UpstreamResult } from './upstream.js';
import { hasUnsafeCharacters } from './content.js';
import type { Userinfo } from '../../shared/userinfo.js';

export type { CacheState };

export interface Upstream {
  fetch(url: string): Promise<UpstreamResult>;
}

export type RefreshOutcome = { ok: true; count: number } | { ok: false; error: string };

/** A fetch with fewer than this share of the last good lines (when there were at least SHRINK_MIN) is refused. */
const SHRINK_RATIO = 0.3;
const SHRINK_MIN = 10;

export interface ExternalSourcesOptions {
  /** FETCH_CONCURRENCY: upstream fetches at once in this process. */
  concurrency: number;
  /** MAX_RESOLVED_CONFIGS: lines kept per URL (more could never be served). */
  maxLines: number;
}

interface WorkLog {
  warn(details: { cause: string }, message: string): void;
  error(details: { err: unknown }, message: string): void;
}

export class ExternalSources {
  private readonly inFlight = new Map<string, Promise<RefreshOutcome>>();
  private readonly slots: FetchSlots;
  private log: WorkLog | null = null;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly upstream: Upstream,
    private readonly changes: ChangeLog,
    private readonly options: ExternalSourcesOptions = { concurrency: 8, maxLines: 2000 },
  ) {
    this.slots = new FetchSlots(options.concurrency);
  }

  /** Where failures of work nobody awaits any more (first fetches that outlived their request) are logged. */
  useLogger(log: WorkLog): void {
    this.log = log;
  }

  /** Upstream fetches running now (never above FETCH_CONCURRENCY). */
  get activeFetches(): number {
    return this.slots.active;
  }

  /** Fetches `url` now; concurrent callers for the same URL share one fetch. */
  refresh(url: string): Promise<RefreshOutcome> {
    const shared = this.inFlight.get(url);
    if (shared) return shared;
    const pending = this.fetchAndStore(url).finally(() => this.inFlight.delete(url));
    this.inFlight.set(url, pending);
    return pending;
  }

  /** The fetch state (last fetch, last error, lines kept) of each URL the cache has a row for, by URL. */
  async fetchStates(urls: string[]): Promise<Map<string, CacheState>> {
    return new Map((await findCacheRows(this.database.db, urls)).map((row) => [row.url, row]));
  }

  /** First fetch of URLs the cache has never attempted (called after sources are added). */
  async fetchNew(urls: string[]): Promise<void> {
    if (urls.length === 0) return;
    const now = new Date().toISOString();
    await insertCacheRows(this.database.db, urls, now);
    const rows = await findCacheRows(this.database.db, urls);
    const fresh = rows.filter((r) => r.last_attempt_at === null).map((r) => r.url);
    await Promise.all(fresh.map((url) => this.refresh(url)));
  }

  /**
   * fetchNew, waited for at most `waitMs` in total: what is unfinished then goes on in the background (its outcome
   * lands in the cache row; anything unexpected is logged), so a create/add answers within FETCH_TIMEOUT_MS.
   */
  async fetchNewWithin(urls: string[], waitMs: number): Promise<void> {
    if (urls.length === 0) return;
    const work = this.fetchNew(urls).catch((err: unknown) => {
      // A database outage is no bug: one line without a stack; the refresher fetches these URLs once it is back.
      if (!isDatabaseUnavailable(err)) return this.log?.error({ err }, 'first fetch of new external sources failed');
      const cause = err instanceof Error ? err.message : String(err);
      this.log?.warn({ cause }, 'first fetch of new external sources not stored: database unavailable');
    });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
      timer.unref();
    });
    await Promise.race([work, deadline]);
    clearTimeout(timer);
  }

  /**
   * One pass of the background refresher: refreshes every URL in use that is due; returns how many were fetched.
   * Claims nothing more once `keepClaiming` answers false (shutdown).
   */
  async refreshDue(
    intervalSeconds: number,
    claimSeconds: number,
    keepClaiming: () => boolean = () => true,
  ): Promise<number> {
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
        this.options.concurrency * 4,
      );
      if (claimed.length === 0) break;
      await Promise.all(claimed.map((url) => this.refresh(url)));
      total += claimed.length;
    }
    return total;
  }

  private async fetchAndStore(url: string): Promise<RefreshOutcome> {
    const { db } = this.database;
    const fetched = await this.slots
      .run(() => this.upstream.fetch(url))
      .catch((error: unknown) => ({
        ok: false as const,
        error: error instanceof Error ? error.message : String(error),
      }));
    const result: UpstreamResult = fetched.ok
      ? { ...fetched, lines: storedLines(fetched.lines, this.options.maxLines) }
      : fetched;
    const now = new Date().toISOString();
    await insertCacheRows(db, [url], now);
    const [previous] = await findCacheRows(db, [url]);
    const problem = result.ok
      ? guardProblem(result.lines, previous?.fetched_at ? previous.configs_count : 0)
      : result.error;
    if (!result.ok || problem) {
      const error = problem ?? 'unknown error';
      await recordFailure(db, url, error, now);
      return { ok: false, error };
    }
    const content = result.lines.join('\n');
    const hash = createHash('sha256').update(content).digest('base64url');
    const userinfo = result.userinfo ?? null;
    await this.changes.write(async (trx, record) => {
      await recordSuccess(trx, url, content, hash, result.lines.length, userinfo, now);
      // New usage numbers change the links' subscription-userinfo header even when the lines stay the same.
      if (hash !== previous?.content_hash || !sameUserinfo(userinfo, previous)) record({ kind: 'url', url });
    });
    return { ok: true, count: result.lines.length };
  }
}

function sameUserinfo(userinfo: Userinfo | null, previous: CacheState | undefined): boolean {
  return (
    (userinfo?.upload ?? null) === (previous?.userinfo_upload ?? null) &&
    (userinfo?.download ?? null) === (previous?.userinfo_download ?? null) &&
    (userinfo?.total ?? null) === (previous?.userinfo_total ?? null) &&
    (userinfo?.expire ?? null) === (previous?.userinfo_expire ?? null)
  );
}

/** The empty/shrink guard of DESIGN.md section 6: why a fetched list must not replace the last good one, or null. */
function guardProblem(lines: string[], previousCount: number): string | null {
  if (lines.length === 0) return 'upstream returned no proxy configs';
  if (previousCount >= SHRINK_MIN && lines.length < previousCount * SHRINK_RATIO) {
    return `upstream shrank from ${previousCount} to ${lines.length} configs; kept the previous content`;
  }
  return null;
}

/** Upstream lines as stored: de-duplicated by identity (first wins), control characters dropped, at most `max`. */
function storedLines(lines: readonly string[], max: number): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const line of lines) {
    if (kept.length >= max) break;
    if (hasUnsafeCharacters(line)) continue;
    const identity = lineIdentity(line);
    if (seen.has(identity)) continue;
    seen.add(identity);
    kept.push(line);
  }
  return kept;
}
