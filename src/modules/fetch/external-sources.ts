// Keeps the external source cache fresh: one in-flight fetch per fetch key (URL and fetch options), FETCH_CONCURRENCY per process, stale-on-error, and the empty/shrink guard.
import { createHash } from 'node:crypto';
import type { DatabaseHandle } from '../../db/database.js';
import type { ChangeLog, RecordChange } from '../../changes/change-log.js';
import type { Executor } from '../../db/executor.js';
import { isDatabaseUnavailable } from '../../db/errors.js';
import { lineIdentity } from '../resolve/resolver.js';
import {
  claimDue,
  countDue,
  ensureCacheRows,
  findCacheRows,
  insertCacheRows,
  lockCacheRow,
  pruneUnused,
  recordFailure,
  recordHeldShrink,
  recordSuccess,
  type CacheState,
} from './cache.store.js';
import { FetchSlots } from './fetch-slots.js';
import type { FetchFailure, UpstreamResult } from './upstream.js';
import { hasUnsafeCharacters } from './content.js';
import type { Userinfo } from '../../shared/userinfo.js';
import { splitFetchKey, type FetchOptions } from './fetch-options.js';
import { guard } from './shrink-guard.js';
import { nextBackoff } from './backoff.js';
import { parsedContent } from './parsed-content.js';
import { PARSED_FORM_VERSION } from '../../formats/share-uri/stored.js';
import { trackSourceHealth } from './source-health.js';

export type { CacheState };

export interface Upstream {
  fetch(url: string, options?: FetchOptions): Promise<UpstreamResult>;
}

export type RefreshOutcome = { ok: true; count: number } | { ok: false; error: string };

export interface RefreshOptions {
  /** Store a shrunken result at once instead of holding it back (POST .../refresh with accept_shrink). */
  acceptShrink?: boolean;
}

export interface ExternalSourcesOptions {
  /** FETCH_CONCURRENCY: upstream fetches at once in this process. */
  concurrency: number;
  /** MAX_RESOLVED_CONFIGS: lines kept per URL (more could never be served). */
  maxLines: number;
  /** Told of every fetch: what came of it, and how long the upstream took (metrics). */
  onFetched?: (outcome: FetchOutcome, seconds: number) => void;
}

/**
 * `ok`: new content stored; `unchanged`: the same content (and usage) again; `held`: a shrink held back; `empty`: an
 * answer without configs held back; `store_failed`: fetched but not stored (database); `error`: a failure of unknown
 * kind.
 */
export type FetchOutcome = 'ok' | 'unchanged' | 'held' | 'empty' | 'store_failed' | 'error' | FetchFailure;

interface WorkLog {
  warn(details: { cause: string }, message: string): void;
  error(details: { err: unknown }, message: string): void;
}

export class ExternalSources {
  private readonly inFlight = new Map<string, { pending: Promise<RefreshOutcome>; acceptShrink: boolean }>();
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

  /**
   * Fetches the upstream of `key` (fetch-options.ts) now; concurrent callers share one fetch. A caller accepting a
   * shrink does not share a fetch that may hold one back: it fetches again once that one is done.
   */
  refresh(key: string, options: RefreshOptions = {}): Promise<RefreshOutcome> {
    const acceptShrink = options.acceptShrink === true;
    const shared = this.inFlight.get(key);
    if (shared && (shared.acceptShrink || !acceptShrink)) return shared.pending;
    const before = shared
      ? shared.pending.then(
          () => undefined,
          () => undefined,
        )
      : Promise.resolve();
    const pending: Promise<RefreshOutcome> = before
      .then(() => this.fetchAndStore(key, acceptShrink))
      .finally(() => {
        if (this.inFlight.get(key)?.pending === pending) this.inFlight.delete(key);
      });
    this.inFlight.set(key, { pending, acceptShrink });
    return pending;
  }

  /** The fetch state (last fetch, last error, lines kept, shrink held) of each key the cache has a row for. */
  async fetchStates(keys: string[]): Promise<Map<string, CacheState>> {
    return new Map((await findCacheRows(this.database.db, keys)).map((row) => [row.url, row]));
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

  /** Cached URLs due for a fetch (never attempted, or not since `intervalSeconds`, and not backed off), claimed or not. */
  countDue(intervalSeconds: number): Promise<number> {
    const nowMs = Date.now();
    return countDue(
      this.database.db,
      new Date(nowMs - intervalSeconds * 1000).toISOString(),
      new Date(nowMs).toISOString(),
    );
  }

  private async fetchAndStore(key: string, acceptShrink: boolean): Promise<RefreshOutcome> {
    const { url, options } = splitFetchKey(key);
    let seconds = 0;
    const fetched = await this.slots
      .run(async () => {
        const startedAt = performance.now();
        try {
          return await this.upstream.fetch(url, options ?? undefined);
        } finally {
          seconds = (performance.now() - startedAt) / 1000;
        }
      })
      .catch((error: unknown): UpstreamResult => ({
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      }));
    const stored = await this.store(key, fetched, acceptShrink).catch((error: unknown) => {
      this.options.onFetched?.('store_failed', seconds);
      throw error;
    });
    this.options.onFetched?.(stored.outcome, seconds);
    return stored.result;
  }

  private async store(
    key: string,
    fetched: UpstreamResult,
    acceptShrink: boolean,
  ): Promise<{ result: RefreshOutcome; outcome: FetchOutcome }> {
    const { db, dialect } = this.database;
    const result: UpstreamResult = fetched.ok
      ? { ...fetched, lines: storedLines(fetched.lines, this.options.maxLines) }
      : fetched;
    const nowMs = Date.now();
    const now = new Date(nowMs).toISOString();
    await insertCacheRows(db, [key], now);
    const content = result.ok ? result.lines.join('\n') : '';
    const hash = createHash('sha256').update(content).digest('base64url');
    // Parsed outside the transaction, and not again while the row holds the parse results of this very content.
    const [known] = result.ok ? await findCacheRows(db, [key]) : [];
    const parsed = result.ok && !holdsParsed(known, hash) ? await parsedContent(result.lines) : null;
    // Under the row's lock: the shrink count is read and written by one fetch at a time, across instances too.
    type Stored = { result: RefreshOutcome; outcome: FetchOutcome };
    const write = async (trx: Executor, record: RecordChange): Promise<Stored> => {
      const previous = await lockCacheRow(trx, dialect, key);
      if (!result.ok) {
        // The refresher leaves an unparseable body alone for a while; parsing it again every pass gains nothing.
        const backoff = result.failure === 'unparseable' ? nextBackoff(previous?.backoff_count ?? 0, nowMs) : null;
        await recordFailure(trx, key, result.error, now, backoff);
        return { result: { ok: false, error: result.error }, outcome: result.failure ?? 'error' };
      }
      const verdict = guard(
        result.lines,
        {
          previousCount: previous?.fetched_at ? previous.configs_count : null,
          held: previous?.shrink_hash ? { hash: previous.shrink_hash, count: previous.shrink_count } : null,
        },
        acceptShrink,
      );
      if (verdict.kind === 'hold') {
        await recordHeldShrink(trx, key, verdict.error, verdict.shrink, now);
        return { result: { ok: false, error: verdict.error }, outcome: result.lines.length === 0 ? 'empty' : 'held' };
      }
      const userinfo = result.userinfo ?? null;
      const form = holdsParsed(previous, hash)
        ? 'keep'
        : parsed === null
          ? null
          : { text: parsed, version: PARSED_FORM_VERSION };
      await recordSuccess(trx, key, content, hash, result.lines.length, userinfo, form, now);
      // New usage numbers change the links' subscription-userinfo header even when the lines stay the same.
      const changed = hash !== previous?.content_hash || !sameUserinfo(userinfo, previous);
      if (changed) record({ kind: 'url', url: key });
      return { result: { ok: true, count: result.lines.length }, outcome: changed ? 'ok' : 'unchanged' };
    };
    return this.changes.write(async (trx, record, emit) => {
      const stored = await write(trx, record);
      await trackSourceHealth(trx, key, stored.result.ok ? null : { reason: stored.outcome }, emit, now);
      return stored;
    });
  }
}

/** Whether the row holds this version's parse results of the content whose hash is `hash`. */
function holdsParsed(row: CacheState | undefined, hash: string): boolean {
  return row?.content_hash === hash && row.parsed_hash === hash && row.parsed_version === PARSED_FORM_VERSION;
}

function sameUserinfo(userinfo: Userinfo | null, previous: CacheState | undefined): boolean {
  return (
    (userinfo?.upload ?? null) === (previous?.userinfo_upload ?? null) &&
    (userinfo?.download ?? null) === (previous?.userinfo_download ?? null) &&
    (userinfo?.total ?? null) === (previous?.userinfo_total ?? null) &&
    (userinfo?.expire ?? null) === (previous?.userinfo_expire ?? null)
  );
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
