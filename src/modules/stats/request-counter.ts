// Counts requests in memory per (hour bucket, kind) and flushes the sums in batches, keeping the database off the request path.
import type { RequestKind } from '../../http/route-kind.js';
import { PeriodicFlush } from '../../shared/periodic-flush.js';
import type { RequestCountRow } from './stats.store.js';

export const HOUR_MS = 3_600_000;
/** docs/api.md (Statistics) promises counted requests within 10 s; flushing every 5 s leaves room for a slow write. */
export const DEFAULT_FLUSH_INTERVAL_MS = 5_000;

export interface RequestCounterOptions {
  /** Persists one batch; must be atomic (all rows or none), so a failed batch can be retried without double counting. */
  write: (rows: RequestCountRow[]) => Promise<void>;
  flushIntervalMs?: number;
  /** Milliseconds since the epoch (tests inject a fixed clock). */
  clock?: () => number;
  /** Told of the first failed periodic flush of a run of failures (one report per outage, not one per flush). */
  onFlushError?: (error: unknown) => void;
}

export function bucketStart(ms: number): string {
  return new Date(ms - (((ms % HOUR_MS) + HOUR_MS) % HOUR_MS)).toISOString();
}

export class RequestCounter {
  private pending = new Map<string, Map<RequestKind, number>>();
  private readonly flusher: PeriodicFlush;
  // The bucket string is cached for the current hour: counting must stay cheap on the hot public endpoint.
  private hourEnd = -Infinity;
  private hourStart = Infinity;
  private hourBucket = '';
  private readonly clock: () => number;

  constructor(private readonly options: RequestCounterOptions) {
    this.clock = options.clock ?? Date.now;
    this.flusher = new PeriodicFlush({
      writePending: () => this.writePending(),
      intervalMs: options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS,
      onFlushError: options.onFlushError,
    });
  }

  count(kind: RequestKind): void {
    const now = this.clock();
    if (now < this.hourStart || now >= this.hourEnd) {
      this.hourBucket = bucketStart(now);
      this.hourStart = Date.parse(this.hourBucket);
      this.hourEnd = this.hourStart + HOUR_MS;
    }
    this.addTo(this.hourBucket, kind, 1);
  }

  /** Counts not yet written by this instance, as rows. */
  pendingRows(): RequestCountRow[] {
    return toRows(this.pending);
  }

  /**
   * Writes the pending counts. Flushes run one at a time, so awaiting this means everything counted before the call
   * is stored. On failure the batch is merged back for the next attempt and the error is thrown.
   */
  flush(): Promise<void> {
    return this.flusher.flush();
  }

  /** Starts the periodic flush; the timer does not keep the process alive. */
  start(): void {
    this.flusher.start();
  }

  /** Stops the timer and writes what is left (graceful shutdown). */
  stop(): Promise<void> {
    return this.flusher.stop();
  }

  private async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.options.write(toRows(batch));
    } catch (error) {
      for (const [bucket, kinds] of batch) {
        for (const [kind, amount] of kinds) this.addTo(bucket, kind, amount);
      }
      throw error;
    }
  }

  private addTo(bucket: string, kind: RequestKind, amount: number): void {
    let kinds = this.pending.get(bucket);
    if (!kinds) this.pending.set(bucket, (kinds = new Map()));
    kinds.set(kind, (kinds.get(kind) ?? 0) + amount);
  }
}

function toRows(pending: Map<string, Map<RequestKind, number>>): RequestCountRow[] {
  const rows: RequestCountRow[] = [];
  for (const [bucket_start, kinds] of pending) {
    for (const [kind, count] of kinds) rows.push({ bucket_start, kind, count });
  }
  return rows;
}
