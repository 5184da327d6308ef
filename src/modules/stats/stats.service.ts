// Answers the admin stats query: resolves the range, makes this instance's buffered counts visible, and aggregates.
import type { Executor } from '../../db/executor.js';
import type { RequestKind } from '../../http/route-kind.js';
import { bucketStart, type RequestCounter } from './request-counter.js';
import { resolveRange, type StatsQuery } from './stats.range.js';
import { countEntities, firstActivity, sumRequestsByKind, type EntityCounts } from './stats.store.js';

/** The kinds reported one by one; `infra` (health probes, docs) counts only in the total. */
export const COUNTED_KINDS = [
  'public',
  'page',
  'user',
  'provider',
  'admin',
  'anonymous',
] as const satisfies readonly RequestKind[];

export interface Stats extends EntityCounts {
  period: { start: string; end: string };
  total_requests: number;
  requests_by_kind: Record<(typeof COUNTED_KINDS)[number], number>;
}

export class StatsService {
  constructor(
    private readonly db: Executor,
    /** This instance's counter: flushed before answering so a caller sees its own requests at once. */
    private readonly counter: RequestCounter | null,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(query: StatsQuery): Promise<Stats> {
    const range = resolveRange(query, this.now());
    await this.flushOwnCounts();
    const end = range.end;
    const start = range.start ?? (await this.openStart(end));
    const [byKind, entities] = await Promise.all([
      // Hour granularity: every bucket overlapping [start, end] counts in full.
      sumRequestsByKind(this.db, bucketStart(start.getTime()), bucketStart(end.getTime())),
      countEntities(this.db, start.toISOString(), end.toISOString()),
    ]);
    let totalRequests = 0;
    for (const count of byKind.values()) totalRequests += count;
    const requestsByKind = Object.fromEntries(COUNTED_KINDS.map((kind) => [kind, byKind.get(kind) ?? 0]));
    return {
      period: { start: start.toISOString(), end: end.toISOString() },
      total_requests: totalRequests,
      ...entities,
      requests_by_kind: requestsByKind as Stats['requests_by_kind'],
    };
  }

  /** An open start is the first recorded activity, but never after `end` (an empty range then). */
  private async openStart(end: Date): Promise<Date> {
    const first = await firstActivity(this.db);
    return first !== null && first < end.toISOString() ? new Date(first) : end;
  }

  private async flushOwnCounts(): Promise<void> {
    try {
      await this.counter?.flush();
    } catch {
      // The counter keeps the batch and its periodic flush logs the failure; stats still answer from what is stored.
    }
  }
}
