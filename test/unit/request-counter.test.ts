// Unit tests of the in-memory request counter: hour buckets, batching, serialized flushes and retry after a failed write.
import { describe, expect, it, vi } from 'vitest';
import { bucketStart, RequestCounter, type RequestCounterOptions } from '../../src/modules/stats/request-counter.js';
import type { RequestCountRow } from '../../src/modules/stats/stats.store.js';

function setup(startIso = '2025-03-10T10:59:59.000Z', options: Partial<RequestCounterOptions> = {}) {
  let now = Date.parse(startIso);
  const written: RequestCountRow[][] = [];
  let failNext = 0;
  const counter = new RequestCounter({
    ...options,
    clock: () => now,
    write: async (rows) => {
      await Promise.resolve();
      if (failNext > 0) {
        failNext -= 1;
        throw new Error('database unavailable');
      }
      written.push(rows);
    },
  });
  return {
    counter,
    written,
    advance: (ms: number) => void (now += ms),
    failWrites: (times: number) => void (failNext = times),
    failuresLeft: () => failNext,
  };
}

const sorted = (rows: RequestCountRow[]) =>
  [...rows].sort((a, b) => `${a.bucket_start}${a.kind}`.localeCompare(`${b.bucket_start}${b.kind}`));

describe('RequestCounter', () => {
  it('floors times to the UTC hour', () => {
    expect(bucketStart(Date.parse('2025-03-10T10:59:59.999Z'))).toBe('2025-03-10T10:00:00.000Z');
    expect(bucketStart(Date.parse('2025-03-10T11:00:00.000Z'))).toBe('2025-03-10T11:00:00.000Z');
  });

  it('sums counts per hour bucket and kind, writing nothing until flushed', async () => {
    const c = setup();
    c.counter.count('public');
    c.counter.count('public');
    c.counter.count('admin');
    c.advance(1000); // crosses into the next hour
    c.counter.count('public');
    c.counter.count('infra');
    expect(c.written).toEqual([]);
    await c.counter.flush();
    expect(c.written).toHaveLength(1);
    expect(sorted(c.written[0] ?? [])).toEqual([
      { bucket_start: '2025-03-10T10:00:00.000Z', kind: 'admin', count: 1 },
      { bucket_start: '2025-03-10T10:00:00.000Z', kind: 'public', count: 2 },
      { bucket_start: '2025-03-10T11:00:00.000Z', kind: 'infra', count: 1 },
      { bucket_start: '2025-03-10T11:00:00.000Z', kind: 'public', count: 1 },
    ]);
    expect(c.counter.pendingRows()).toEqual([]);
  });

  it('skips the write when nothing is pending', async () => {
    const c = setup();
    await c.counter.flush();
    expect(c.written).toEqual([]);
  });

  it('keeps a failed batch and adds it to later counts on the next flush', async () => {
    const c = setup();
    c.counter.count('user');
    c.counter.count('user');
    c.failWrites(1);
    await expect(c.counter.flush()).rejects.toThrow('database unavailable');
    c.counter.count('user');
    expect(c.counter.pendingRows()).toEqual([{ bucket_start: '2025-03-10T10:00:00.000Z', kind: 'user', count: 3 }]);
    await c.counter.flush();
    expect(c.written).toEqual([[{ bucket_start: '2025-03-10T10:00:00.000Z', kind: 'user', count: 3 }]]);
  });

  it('runs flushes one at a time; counts made during a write go to the next batch', async () => {
    let release: () => void = () => undefined;
    let active = 0;
    let maxActive = 0;
    const batches: RequestCountRow[][] = [];
    const counter = new RequestCounter({
      clock: () => Date.parse('2025-03-10T10:00:00.000Z'),
      write: async (rows) => {
        active += 1;
        maxActive = Math.max(maxActive, active);
        batches.push(rows);
        await new Promise<void>((resolve) => (release = resolve));
        active -= 1;
      },
    });
    counter.count('provider');
    const first = counter.flush();
    await vi.waitFor(() => expect(batches).toHaveLength(1));
    counter.count('provider');
    const second = counter.flush();
    release();
    await first;
    await vi.waitFor(() => expect(batches).toHaveLength(2));
    release();
    await second;
    expect(maxActive).toBe(1);
    expect(batches.map((rows) => rows.map((row) => row.count))).toEqual([[1], [1]]);
  });

  it('reports a run of failed periodic flushes once, and the next run once again', async () => {
    const reported: unknown[] = [];
    const c = setup(undefined, { flushIntervalMs: 5, onFlushError: (error) => reported.push(error) });
    c.failWrites(3);
    c.counter.count('user');
    c.counter.start();
    await vi.waitFor(() => expect(c.written).toHaveLength(1)); // three failed flushes, then one that wrote
    expect(reported).toHaveLength(1);
    c.failWrites(2);
    c.counter.count('user');
    await vi.waitFor(() => expect(c.written).toHaveLength(2));
    expect(reported).toHaveLength(2);
    expect(c.failuresLeft()).toBe(0);
    await c.counter.stop();
  });

  it('flushes what is left on stop', async () => {
    const c = setup();
    c.counter.start();
    c.counter.count('public');
    await c.counter.stop();
    expect(c.written).toEqual([[{ bucket_start: '2025-03-10T10:00:00.000Z', kind: 'public', count: 1 }]]);
  });
});
