// Keeps the public fetches of each subscription in memory and writes them in batches, keeping the database off the
// request path (the same pattern as the request counter in src/modules/stats/request-counter.ts).
import { PeriodicFlush } from '../../shared/periodic-flush.js';
import { maskClient } from './client-mask.js';
import { HISTORY_LIMIT, type HistoryRow } from './history.store.js';

/** Like the request counter: flushed every 5 s, so a fetch shows in the history within seconds on every instance. */
export const DEFAULT_HISTORY_FLUSH_MS = 5_000;
/** Fetches held between flushes at most; beyond it new ones are dropped until the next flush (a flood costs no memory). */
export const MAX_PENDING = 20_000;
const USER_AGENT_CHARS = 256;

/** One answered fetch, as the request path knows it: the address unmasked and the user agent uncut (done at flush). */
export interface Fetch {
  token: string;
  format: string | null;
  rule: string | null;
  status: number;
  userAgent: string | undefined;
  ip: string;
  servers: number | null;
}

export interface RequestHistoryOptions {
  /** Persists one batch atomically. */
  write: (rows: HistoryRow[]) => Promise<void>;
  flushIntervalMs?: number;
  clock?: () => number;
  /** Told of the first failed periodic flush of a run of failures. */
  onFlushError?: (error: unknown) => void;
}

interface Pending extends Fetch {
  at: number;
}

export class RequestHistory {
  /** Per token, at most HISTORY_LIMIT fetches (older ones could never be shown). */
  private pending = new Map<string, Pending[]>();
  private size = 0;
  private readonly flusher: PeriodicFlush;
  private readonly clock: () => number;

  constructor(private readonly options: RequestHistoryOptions) {
    this.clock = options.clock ?? Date.now;
    this.flusher = new PeriodicFlush({
      writePending: () => this.writePending(),
      intervalMs: options.flushIntervalMs ?? DEFAULT_HISTORY_FLUSH_MS,
      onFlushError: options.onFlushError,
    });
  }

  /** The history's clock: answers written together can share one reading (`record`'s `at`). */
  now(): number {
    return this.clock();
  }

  /** Takes the object over (it gets the time, `at` or now, and is kept until flushed). */
  record(fetch: Fetch, at = this.clock()): void {
    if (this.size >= MAX_PENDING) return;
    const entry = fetch as Pending;
    entry.at = at;
    const list = this.pending.get(fetch.token);
    if (!list) this.pending.set(fetch.token, [entry]);
    // Past twice the limit the older half goes at once: dropping one entry per fetch moved the whole list every time.
    else if (list.push(entry) > 2 * HISTORY_LIMIT) {
      list.splice(0, HISTORY_LIMIT);
      this.size -= HISTORY_LIMIT;
    }
    this.size++;
  }

  /** This instance's unwritten fetches of a subscription, as rows. */
  pendingRows(token: string): HistoryRow[] {
    return newest(this.pending.get(token) ?? []).map(toRow);
  }

  /** Writes what is pending; flushes run one at a time, and a failed batch is kept (within the bounds) for the next. */
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
    if (this.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.size = 0;
    try {
      await this.options.write([...batch.values()].flatMap((list) => newest(list).map(toRow)));
    } catch (error) {
      // The failed batch is older than anything recorded since: it goes first, within the same bounds.
      for (const [token, list] of batch) {
        const newer = this.pending.get(token) ?? [];
        const merged = [...list, ...newer].slice(-HISTORY_LIMIT);
        this.size += merged.length - newer.length;
        this.pending.set(token, merged);
      }
      throw error;
    }
  }
}

/** The fetches of a list that can still be shown (a list holds up to twice as many between trims). */
function newest(list: Pending[]): Pending[] {
  return list.length > HISTORY_LIMIT ? list.slice(-HISTORY_LIMIT) : list;
}

function toRow(entry: Pending): HistoryRow {
  return {
    subscription_token: entry.token,
    at: new Date(entry.at).toISOString(),
    format: entry.format,
    rule: entry.rule,
    status: entry.status,
    user_agent: entry.userAgent === undefined ? null : entry.userAgent.slice(0, USER_AGENT_CHARS),
    client: maskClient(entry.ip),
    servers: entry.servers,
  };
}
