// Upstream fetching is bounded per process (docs/api.md, External sources and refresh): one FETCH_CONCURRENCY limit, create/add bounded by FETCH_TIMEOUT_MS, joined refreshes.
import { expect, it } from 'vitest';
import { describeEachDatabase, useTestApp, type TestApp } from '../support/harness.js';
import { unique } from '../support/factories.js';
import type { RefreshReport } from '../../src/modules/subscriptions/subscription-refresh.js';
import type { SubscriptionView } from '../../src/modules/subscriptions/subscriptions.schemas.js';
import { upstreamLines, useUpstream, type Handler, type UpstreamServer } from '../support/upstream-server.js';

const FETCH_TIMEOUT_MS = 1000;
/** The hanging-URL suite waits out every timeout, one wave after another: a shorter one keeps it quick. */
const HANGING_TIMEOUT_MS = 500;
const FETCH_CONCURRENCY = 3;

/** Answers after `ms` and counts requests in flight at this upstream, so a test can read the peak. */
function gauge() {
  const state = { active: 0, peak: 0 };
  const handler =
    (ms: number, body: string): Handler =>
    (_req, res) => {
      state.active++;
      state.peak = Math.max(state.peak, state.active);
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        state.active--;
      };
      const timer = setTimeout(() => {
        finish();
        res.writeHead(200).end(body);
      }, ms);
      res.on('close', () => {
        clearTimeout(timer);
        finish();
      });
    };
  return { state, handler };
}

function api(t: TestApp) {
  return {
    async create(sources: string[], userToken?: string) {
      const owner = userToken ?? (await t.newUser()).token;
      const res = await t.call('POST', '/api/v1/subs', { token: owner, body: { name: unique('sub'), sources } });
      expect(res.statusCode, res.body).toBe(201);
      return { view: res.json<SubscriptionView>(), userToken: owner };
    },
    async view(userToken: string, token: string) {
      const res = await t.call('GET', `/api/v1/subs/${token}`, { token: userToken });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<SubscriptionView>();
    },
    async refresh(userToken: string, token: string) {
      const res = await t.call('POST', `/api/v1/subs/${token}/refresh`, { token: userToken });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<RefreshReport>();
    },
  };
}

describeEachDatabase('bounded fetching', (kind) => {
  const t = useTestApp(kind, {
    FETCH_TIMEOUT_MS: String(FETCH_TIMEOUT_MS),
    FETCH_CONCURRENCY: String(FETCH_CONCURRENCY),
    MAX_SUBSCRIPTIONS_PER_USER: '10',
  });
  const client = api(t);
  const upstream = useUpstream();
  const up = (): UpstreamServer => upstream.current;

  it('never runs more than FETCH_CONCURRENCY fetches at once across creates, adds and refreshes', async () => {
    const { state, handler } = gauge();
    const urlsA = Array.from({ length: 12 }, () => up().add(handler(150, upstreamLines(2).join('\n'))));
    const urlsB = Array.from({ length: 12 }, () => up().add(handler(150, upstreamLines(2).join('\n'))));
    const owner = (await t.newUser()).token;
    const first = await client.create(urlsA, owner);
    state.peak = 0;
    const urlsC = Array.from({ length: 12 }, () => up().add(handler(150, upstreamLines(2).join('\n'))));
    const second = client.create(urlsB, owner);
    const refresh = client.refresh(owner, first.view.token);
    const add = t.call('POST', `/api/v1/subs/${first.view.token}/sources`, { token: owner, body: { sources: urlsC } });
    const [, report, added] = await Promise.all([second, refresh, add]);
    expect(added.statusCode, added.body).toBe(200);
    expect(report).toMatchObject({ refreshed: 12, failed: 0 });
    expect(state.peak).toBe(FETCH_CONCURRENCY);
  }, 30_000);

  it('joins a refresh already running: each URL is fetched once and both answer the same counts', async () => {
    const urls = Array.from({ length: 6 }, () => up().add(upstreamLines(3).join('\n')));
    const { view, userToken } = await client.create(urls);
    // Create answers after FETCH_TIMEOUT_MS at the latest, so on a slow machine a first fetch may still be running; a
    // refresh joins it and ends only when every URL has answered.
    await client.refresh(userToken, view.token);
    // Staggered answers: when the second refresh arrives the first has finished some URLs and not others, so without
    // joining it would fetch the finished ones again.
    urls.forEach((url, i) => up().set(url, gauge().handler(100 + i * 150, upstreamLines(3).join('\n'))));
    const before = urls.map((url) => up().hits(url));
    const first = client.refresh(userToken, view.token);
    await new Promise((resolve) => setTimeout(resolve, 450));
    const [a, b] = await Promise.all([first, client.refresh(userToken, view.token)]);
    expect(a).toEqual(b);
    expect(a).toMatchObject({ refreshed: 6, failed: 0, total: 6 });
    expect(urls.map((url, i) => up().hits(url) - (before[i] ?? 0))).toEqual(urls.map(() => 1));
  });

  it('drops upstream lines with NUL or control characters instead of failing the create', async () => {
    const [good, nul, ctl] = upstreamLines(3);
    const url = up().add([`${nul as string}\u0000`, good as string, `${ctl as string}\u0001x`].join('\n'));
    const { view } = await client.create([url]);
    expect(view.sources[0]).toMatchObject({ last_error: null, configs_count: 1 });
    const res = await t.call('GET', `/api/v1/sub/${view.token}?format=plain`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe(good);
  });
});

describeEachDatabase('bounded fetching: hanging upstreams', (kind) => {
  const t = useTestApp(kind, {
    FETCH_TIMEOUT_MS: String(HANGING_TIMEOUT_MS),
    FETCH_CONCURRENCY: String(FETCH_CONCURRENCY),
  });
  const client = api(t);
  const upstream = useUpstream();
  const up = (): UpstreamServer => upstream.current;

  it('answers a create with 40 hanging URLs after FETCH_TIMEOUT_MS and finishes the fetches in the background', async () => {
    const urls = Array.from({ length: 40 }, () => up().add(() => undefined)); // never answers
    const { view, userToken } = await client.create(urls);
    // The create answered while most fetches had not even started: had it waited for all of them (one wave of 3
    // after another), none would be pending. The first wave was under way before it answered.
    const pending = view.sources.filter((s) => s.last_error === null);
    expect(pending.length).toBeGreaterThan(30);
    expect(urls.filter((url) => up().hits(url) > 0).length).toBeGreaterThanOrEqual(FETCH_CONCURRENCY);
    // The rest go on after the answer, FETCH_CONCURRENCY at a time, each cut at the timeout, and are recorded.
    await expect
      .poll(
        async () =>
          (await client.view(userToken, view.token)).sources.filter((s) => /time/i.test(s.last_error ?? '')).length,
        {
          timeout: 30_000,
          interval: 500,
        },
      )
      .toBe(40);
  }, 40_000);
});
