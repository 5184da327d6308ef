import { describe, expect, it } from 'vitest';
import { MAX_PENDING, RequestHistory, type Fetch } from '../../src/modules/history/request-history.js';
import type { HistoryRow } from '../../src/modules/history/history.store.js';

const fetchOf = (token: string, i: number): Fetch => ({
  token,
  format: 'base64',
  rule: 'default',
  status: 200,
  userAgent: `client-${i}`,
  ip: '203.0.113.7',
  servers: 2,
});

function historyWriting(into: HistoryRow[][]) {
  return new RequestHistory({ write: async (rows) => void into.push(rows), clock: () => 0 });
}

describe('request history in memory', () => {
  it('holds the newest 100 fetches of a link however many came, and writes only those', async () => {
    const written: HistoryRow[][] = [];
    const history = historyWriting(written);
    for (let i = 0; i < 450; i++) history.record(fetchOf('a', i));
    history.record(fetchOf('b', 0));
    const pending = history.pendingRows('a').map((row) => row.user_agent);
    expect(pending).toHaveLength(100);
    expect(pending[0]).toBe('client-350');
    expect(pending[99]).toBe('client-449');
    await history.flush();
    expect(written).toHaveLength(1);
    expect(written[0]!.filter((row) => row.subscription_token === 'a').map((row) => row.user_agent)).toEqual(pending);
    expect(written[0]!.filter((row) => row.subscription_token === 'b')).toHaveLength(1);
    expect(history.pendingRows('a')).toEqual([]);
  });

  it('counts what it holds, so the bound on pending fetches still applies to many links', async () => {
    const written: HistoryRow[][] = [];
    const history = historyWriting(written);
    // 250 fetches leave a link holding 150 (it holds up to 200 between trims): 100 links hold 15,000.
    for (let link = 0; link < 100; link++) for (let i = 0; i < 250; i++) history.record(fetchOf(`t${link}`, i));
    history.record(fetchOf('last', 0));
    expect(history.pendingRows('last')).toHaveLength(1);
    for (let i = 0; i < 40_000; i++) history.record(fetchOf(`flood-${i}`, i));
    await history.flush();
    // The flood is taken until the 15,001 held fetches reach the bound, then dropped; each link writes its newest 100.
    const flood = written[0]!.filter((row) => row.subscription_token.startsWith('flood-'));
    expect(flood).toHaveLength(MAX_PENDING - 15_001);
    expect(written[0]!.length).toBe(100 * 100 + 1 + flood.length);
  });

  it('times a fetch by its clock, or by the reading it is given', () => {
    let readings = 0;
    const history = new RequestHistory({ write: async () => undefined, clock: () => ++readings * 1000 });
    history.record(fetchOf('a', 0));
    const shared = history.now();
    history.record(fetchOf('a', 1), shared);
    history.record(fetchOf('a', 2), shared);
    expect(history.pendingRows('a').map((row) => row.at)).toEqual(
      [1000, 2000, 2000].map((at) => new Date(at).toISOString()),
    );
    expect(readings).toBe(2);
  });
});
