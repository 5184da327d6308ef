// The background refresh of external sources (docs/api.md, External sources and refresh): what is due, pruning, claims, and several workers.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.js';
import { ExternalSources } from '../../src/modules/fetch/external-sources.js';
import type { UpstreamResult } from '../../src/modules/fetch/upstream.js';
import { Refresher, type RefresherOptions } from '../../src/modules/fetch/refresher.js';
import { ChangeLog, type Change } from '../../src/changes/change-log.js';
import { describeEachDatabase, openSecondHandle, openTestDatabase, type TestDatabase } from '../support/harness.js';
import { createTestUser, sha32, unique } from '../support/factories.js';
import { waitFor } from '../support/time.js';
import { seedSources, seedSubscriptions } from '../support/graph-seed.js';

const HOUR = 3600;
const CLAIM = 60;

/** An upstream stand-in that counts fetches per URL; answers a few config lines unless told otherwise. */
function countingUpstream(options: { delayMs?: number } = {}) {
  const calls = new Map<string, number>();
  const answers = new Map<string, UpstreamResult>();
  return {
    calls,
    count: (url: string) => calls.get(url) ?? 0,
    total: () => [...calls.values()].reduce((sum, n) => sum + n, 0),
    answer: (url: string, result: UpstreamResult) => answers.set(url, result),
    async fetch(url: string): Promise<UpstreamResult> {
      calls.set(url, (calls.get(url) ?? 0) + 1);
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      return answers.get(url) ?? { ok: true, lines: linesFor(url) };
    },
  };
}

const linesFor = (url: string, n = 2): string[] =>
  Array.from({ length: n }, (_, i) => `trojan://pw@${sha32(url).slice(0, 12)}-${i}.example.net:443#${i}`);

const feedUrl = (): string => `https://${unique('feed')}.example.org/sub`;

/** Data helpers on one database: users, subscriptions holding external URLs, and the cache rows. */
function dataOn(db: DatabaseHandle['db']) {
  return {
    /** A subscription of a fresh user holding `urls` as external sources; returns its token. */
    async subscription(urls: string[]): Promise<string> {
      const { userId } = await createTestUser(db);
      const [token = ''] = await seedSubscriptions(db, userId, 1);
      await seedSources(
        db,
        token,
        urls.map((data) => ({ type: 'external_url', data })),
      );
      return token;
    },
    removeSource: (token: string, url: string) =>
      db.deleteFrom('sources').where('subscription_token', '=', token).where('data', '=', url).execute(),
    row: (url: string) => db.selectFrom('external_cache').selectAll().where('url', '=', url).executeTakeFirst(),
    cachedUrls: async () => (await db.selectFrom('external_cache').select('url').execute()).map((r) => r.url).sort(),
    /** Moves the last attempt of `url` back in time so it is due again. */
    makeDue: (url: string, secondsAgo = 2 * HOUR) =>
      db
        .updateTable('external_cache')
        .set({ last_attempt_at: new Date(Date.now() - secondsAgo * 1000).toISOString() })
        .where('url', '=', url)
        .execute(),
    setClaim: (url: string, claimedUntil: string | null) =>
      db.updateTable('external_cache').set({ claimed_until: claimedUntil }).where('url', '=', url).execute(),
  };
}

function recordingLog() {
  const entries: Array<{ level: 'info' | 'error'; args: unknown[] }> = [];
  const log = {
    info: (...args: unknown[]) => entries.push({ level: 'info', args }),
    error: (...args: unknown[]) => entries.push({ level: 'error', args }),
  } as unknown as RefresherOptions['log'];
  return { log, entries };
}

describeEachDatabase('refresher: ExternalSources.refreshDue', (kind) => {
  let database: TestDatabase;
  let data: ReturnType<typeof dataOn>;
  let upstream: ReturnType<typeof countingUpstream>;
  let changes: Change[];
  let external: ExternalSources;

  beforeEach(async () => {
    database = await openTestDatabase(kind);
    data = dataOn(database.handle.db);
    upstream = countingUpstream();
    changes = [];
    const feed = new ChangeLog(database.handle);
    feed.subscribe((batch) => {
      if (batch !== 'everything') changes.push(...batch);
    });
    external = new ExternalSources(database.handle, upstream, feed);
  });
  afterEach(async () => {
    await database.close();
  });

  it('fetches every distinct URL in use once and stores its content', async () => {
    const [a, b, shared] = [feedUrl(), feedUrl(), feedUrl()];
    await data.subscription([a, shared]);
    await data.subscription([shared, b]);

    expect(await external.refreshDue(HOUR, CLAIM)).toBe(3);
    expect(Object.fromEntries(upstream.calls)).toEqual({ [a]: 1, [b]: 1, [shared]: 1 });
    for (const url of [a, b, shared]) {
      const row = await data.row(url);
      expect(row?.content).toBe(linesFor(url).join('\n'));
      expect(row?.configs_count).toBe(2);
      expect(row?.fetched_at).not.toBeNull();
      expect(row?.last_error).toBeNull();
      expect(row?.claimed_until).toBeNull();
    }
    expect(changes).toHaveLength(3);
    expect(new Set(changes)).toEqual(new Set([a, b, shared].map((url) => ({ kind: 'url', url }))));
  });

  it('does not fetch a URL again before its interval has passed, and does once it is due', async () => {
    const [a, b] = [feedUrl(), feedUrl()];
    await data.subscription([a, b]);
    await external.refreshDue(HOUR, CLAIM);

    expect(await external.refreshDue(HOUR, CLAIM)).toBe(0);
    expect([upstream.count(a), upstream.count(b)]).toEqual([1, 1]);

    await data.makeDue(a, HOUR + 5);
    expect(await external.refreshDue(HOUR, CLAIM)).toBe(1);
    expect([upstream.count(a), upstream.count(b)]).toEqual([2, 1]);
  });

  it('counts a manual refresh as an attempt within the interval', async () => {
    const [a, b] = [feedUrl(), feedUrl()];
    await data.subscription([a, b]);
    expect(await external.refresh(a)).toEqual({ ok: true, count: 2 });
    expect(await external.refreshDue(HOUR, CLAIM)).toBe(1);
    expect([upstream.count(a), upstream.count(b)]).toEqual([1, 1]);
  });

  it('publishes a change only when the stored content changes', async () => {
    const url = feedUrl();
    await data.subscription([url]);
    await external.refreshDue(HOUR, CLAIM);
    expect(changes).toEqual([{ kind: 'url', url }]);

    await data.makeDue(url);
    await external.refreshDue(HOUR, CLAIM);
    expect(upstream.count(url)).toBe(2);
    expect(changes).toHaveLength(1);

    upstream.answer(url, { ok: true, lines: linesFor(url, 3) });
    await data.makeDue(url);
    await external.refreshDue(HOUR, CLAIM);
    expect(changes).toEqual([
      { kind: 'url', url },
      { kind: 'url', url },
    ]);
  });

  it('prunes cache rows no source uses any more, without fetching them', async () => {
    const [kept, dropped] = [feedUrl(), feedUrl()];
    const token = await data.subscription([kept, dropped]);
    await external.refreshDue(HOUR, CLAIM);
    expect(await data.cachedUrls()).toEqual([kept, dropped].sort());

    await data.removeSource(token, dropped);
    await data.makeDue(kept);
    await data.makeDue(dropped);
    expect(await external.refreshDue(HOUR, CLAIM)).toBe(1);
    expect(await data.cachedUrls()).toEqual([kept]);
    expect([upstream.count(kept), upstream.count(dropped)]).toEqual([2, 1]);
  });

  it('a failed fetch records the error, keeps the content, releases the claim, and waits for the next interval', async () => {
    const url = feedUrl();
    await data.subscription([url]);
    await external.refreshDue(HOUR, CLAIM);
    const good = await data.row(url);

    upstream.answer(url, { ok: false, error: 'HTTP 502' });
    await data.makeDue(url);
    expect(await external.refreshDue(HOUR, CLAIM)).toBe(1);
    const failed = await data.row(url);
    expect(failed?.last_error).toBe('HTTP 502');
    expect(failed?.content).toBe(good?.content);
    expect(failed?.fetched_at).toBe(good?.fetched_at);
    expect(failed?.claimed_until).toBeNull();
    // makeDue moved the attempt two hours back; the failed attempt is recorded as now.
    expect(Date.parse(failed?.last_attempt_at ?? '')).toBeGreaterThan(Date.now() - 60_000);

    expect(await external.refreshDue(HOUR, CLAIM)).toBe(0);
    expect(upstream.count(url)).toBe(2);
  });

  it('an upstream that throws is recorded as a failure, not a crashed pass', async () => {
    const [bad, good] = [feedUrl(), feedUrl()];
    await data.subscription([bad, good]);
    const throwing = {
      fetch: (url: string) => (url === bad ? Promise.reject(new Error('socket hang up')) : upstream.fetch(url)),
    };
    const sources = new ExternalSources(database.handle, throwing, new ChangeLog(database.handle));
    expect(await sources.refreshDue(HOUR, CLAIM)).toBe(2);
    expect((await data.row(bad))?.last_error).toBe('socket hang up');
    expect((await data.row(good))?.last_error).toBeNull();
  });

  it('leaves a URL claimed by another worker alone until the claim expires', async () => {
    const url = feedUrl();
    await data.subscription([url]);
    await external.refreshDue(HOUR, CLAIM);
    await data.makeDue(url);

    await data.setClaim(url, new Date(Date.now() + 30_000).toISOString());
    expect(await external.refreshDue(HOUR, CLAIM)).toBe(0);
    expect(upstream.count(url)).toBe(1);

    await data.setClaim(url, new Date(Date.now() - 1_000).toISOString());
    expect(await external.refreshDue(HOUR, CLAIM)).toBe(1);
    expect(upstream.count(url)).toBe(2);
  });

  it('concurrent passes of one instance fetch each URL once', async () => {
    const slowUpstream = countingUpstream({ delayMs: 10 });
    const sources = new ExternalSources(database.handle, slowUpstream, new ChangeLog(database.handle));
    const urls = Array.from({ length: 24 }, feedUrl);
    await data.subscription(urls.slice(0, 12));
    await data.subscription(urls.slice(12));
    const counts = await Promise.all([1, 2, 3].map(() => sources.refreshDue(HOUR, CLAIM)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(urls.length);
    expect(urls.map((url) => slowUpstream.count(url))).toEqual(urls.map(() => 1));
  });

  it.skipIf(kind === 'sqlite')(
    'two instances on one PostgreSQL schema fetch each URL exactly once per interval (skipped on SQLite: one process refreshes there, docs/deploy.md)',
    async () => {
      const second = openSecondHandle(database);
      try {
        const workers = [database.handle, second].map((handle) => {
          const counter = countingUpstream({ delayMs: 5 });
          return { counter, sources: new ExternalSources(handle, counter, new ChangeLog(handle)) };
        });
        const urls = Array.from({ length: 240 }, feedUrl);
        for (let i = 0; i < urls.length; i += 40) await data.subscription(urls.slice(i, i + 40));

        // Several overlapping passes per worker, then more rounds within the same interval.
        let fetched = 0;
        for (let round = 0; round < 3; round++) {
          const passes = [1, 2, 3, 4].flatMap(() => workers.map((w) => w.sources.refreshDue(HOUR, CLAIM)));
          fetched += (await Promise.all(passes)).reduce((a, b) => a + b, 0);
        }
        expect(fetched).toBe(urls.length);
        for (const url of urls) {
          expect(
            workers.map((w) => w.counter.count(url)).reduce((a, b) => a + b, 0),
            url,
          ).toBe(1);
        }
      } finally {
        await second.close();
      }
    },
  );
});

describeEachDatabase('refresher: Refresher', (kind) => {
  let database: TestDatabase;
  let data: ReturnType<typeof dataOn>;
  let upstream: ReturnType<typeof countingUpstream>;
  let external: ExternalSources;
  const refreshers: Refresher[] = [];

  beforeEach(async () => {
    database = await openTestDatabase(kind);
    data = dataOn(database.handle.db);
    upstream = countingUpstream({ delayMs: 5 });
    external = new ExternalSources(database.handle, upstream, new ChangeLog(database.handle));
  });
  afterEach(async () => {
    await Promise.all(refreshers.splice(0).map((r) => r.stop()));
    await database.close();
  });

  const refresher = (intervalSeconds: number, sources: ExternalSources = external) => {
    const recording = recordingLog();
    const instance = new Refresher(sources, { intervalSeconds, claimSeconds: CLAIM, log: recording.log });
    refreshers.push(instance);
    return { instance, entries: recording.entries };
  };

  it('tick runs one pass, logs how many URLs it refreshed, and shares a running pass', async () => {
    const urls = [feedUrl(), feedUrl()];
    await data.subscription(urls);
    const { instance, entries } = refresher(HOUR);
    const first = instance.tick();
    const second = instance.tick();
    expect(second).toBe(first);
    await first;
    expect(urls.map((url) => upstream.count(url))).toEqual([1, 1]);
    expect(entries).toEqual([{ level: 'info', args: [{ refreshed: 2 }, expect.any(String)] }]);

    await instance.tick();
    expect(upstream.total()).toBe(2);
    expect(entries).toHaveLength(1);
  });

  it('a failing pass is logged and the next tick still runs', async () => {
    let fail = true;
    const flaky = {
      refreshDue: (interval: number, claim: number) =>
        fail ? Promise.reject(new Error('database unavailable')) : external.refreshDue(interval, claim),
    } as unknown as ExternalSources;
    await data.subscription([feedUrl()]);
    const { instance, entries } = refresher(HOUR, flaky);
    await instance.tick(); // resolves: the error is logged, not thrown
    expect(entries).toHaveLength(1);
    expect(entries[0]?.level).toBe('error');
    expect(upstream.total()).toBe(0);

    fail = false;
    await instance.tick();
    expect(upstream.total()).toBe(1);
  });

  it('start runs a pass at once and then on its timer; stop ends the timer', async () => {
    // The timer is driven by hand (only setInterval is faked): passes are counted as the timer starts them.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      let passes = 0;
      let lastPass: Promise<unknown> = Promise.resolve();
      const counting = {
        refreshDue: (...args: Parameters<ExternalSources['refreshDue']>) => {
          passes++;
          lastPass = external.refreshDue(...args);
          return lastPass;
        },
      } as unknown as ExternalSources;
      const url = feedUrl();
      await data.subscription([url]);
      const { instance } = refresher(1, counting);
      instance.start();
      expect(passes).toBe(1);
      expect(await waitFor(5_000, () => upstream.count(url) === 1)).toBe(true);
      // A tick while a pass is still storing joins it instead of starting another: wait for the pass to end.
      await lastPass;

      await data.makeDue(url, 5);
      await vi.advanceTimersByTimeAsync(999);
      expect(passes).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(passes).toBe(2);
      expect(await waitFor(5_000, () => upstream.count(url) === 2)).toBe(true);

      await instance.stop();
      expect(vi.getTimerCount()).toBe(0);
      await data.makeDue(url, 5);
      await vi.advanceTimersByTimeAsync(5_000);
      expect(passes).toBe(2);
      expect(upstream.count(url)).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
