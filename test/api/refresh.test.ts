// POST /api/v1/subs/{token}/refresh: counters, per-failure errors, access rules, and the link serving the new content.
import { expect, it } from 'vitest';
import { describeEachDatabase, useTestApp, type TestApp } from '../support/harness.js';
import { internalRef, unique, vlessUri, plainLines } from '../support/factories.js';
import { expectError } from '../support/expect.js';
import type { RefreshReport } from '../../src/modules/subscriptions/subscription-refresh.js';
import { slow, text, upstreamLines, useUpstream, type UpstreamServer } from '../support/upstream-server.js';

function refreshApi(t: TestApp) {
  const helpers = {
    async create(sources: unknown[], userToken?: string) {
      const owner = userToken ?? (await t.newUser()).token;
      const res = await t.call('POST', '/api/v1/subs', { token: owner, body: { name: unique('sub'), sources } });
      expect(res.statusCode, res.body).toBe(201);
      return { token: res.json<{ token: string }>().token, userToken: owner };
    },
    call: (userToken: string | undefined, token: string) =>
      t.call('POST', `/api/v1/subs/${token}/refresh`, userToken ? { token: userToken } : {}),
    /** Refreshes and returns the report (status 200 and the counter invariant asserted). */
    async refresh(userToken: string, token: string): Promise<RefreshReport> {
      const res = await helpers.call(userToken, token);
      expect(res.statusCode, res.body).toBe(200);
      const report = res.json<RefreshReport>();
      expect(Object.keys(report).sort()).toEqual(['errors', 'failed', 'message', 'refreshed', 'skipped', 'total']);
      expect(report.refreshed + report.failed + report.skipped).toBe(report.total);
      expect(typeof report.message).toBe('string');
      expect((report.message as string).length).toBeGreaterThan(0);
      return report;
    },
    lines: (token: string): Promise<string[]> => plainLines(t, token),
  };
  return helpers;
}

describeEachDatabase('refresh', (kind) => {
  const t = useTestApp(kind);
  const api = refreshApi(t);
  const upstream = useUpstream();
  const up = (): UpstreamServer => upstream.current;

  it('counts config and internal sources as skipped and reports each failed URL', async () => {
    const good = up().add(upstreamLines(3).join('\n'));
    const bad = up().add(upstreamLines(3).join('\n'));
    const lib = await api.create([vlessUri()]);
    const sub = await api.create([vlessUri(), good, internalRef(lib.token), bad, `${vlessUri()}#x`]);
    up().set(bad, text('upstream exploded', 500));
    const hits = [up().hits(good), up().hits(bad)];

    const report = await api.refresh(sub.userToken, sub.token);
    expect(report).toMatchObject({ refreshed: 1, failed: 1, skipped: 3, total: 5 });
    expect(report.errors).toHaveLength(1);
    const [error] = report.errors as string[];
    expect(error?.startsWith(`${bad}: `), error).toBe(true);
    expect(error?.slice(bad.length + 2)).toContain('500');
    expect([up().hits(good), up().hits(bad)]).toEqual([(hits[0] ?? 0) + 1, (hits[1] ?? 0) + 1]);
  });

  it('reports errors as null when every external source refreshes', async () => {
    const urls = [up().add(upstreamLines(2).join('\n')), up().add(upstreamLines(2).join('\n'))];
    const sub = await api.create([...urls, vlessUri()]);
    const report = await api.refresh(sub.userToken, sub.token);
    expect(report).toMatchObject({ refreshed: 2, failed: 0, skipped: 1, total: 3, errors: null });
  });

  it('reports every failure, with its own reason, when several fail', async () => {
    const gone = up().add(text('', 404));
    const empty = up().add(text(''));
    const sub = await api.create([gone, empty]);
    const report = await api.refresh(sub.userToken, sub.token);
    expect(report).toMatchObject({ refreshed: 0, failed: 2, skipped: 0, total: 2 });
    expect(report.errors).toHaveLength(2);
    for (const url of [gone, empty]) {
      const error = report.errors?.find((e) => e.startsWith(`${url}: `));
      expect(error, url).toBeDefined();
      expect(error?.slice(url.length + 2).trim()).not.toBe('');
    }
  });

  it('a fetch refused by the shrink guard counts as failed', async () => {
    const url = up().add(upstreamLines(20).join('\n'));
    const sub = await api.create([url]);
    up().set(url, upstreamLines(2).join('\n'));
    const report = await api.refresh(sub.userToken, sub.token);
    expect(report).toMatchObject({ refreshed: 0, failed: 1, total: 1 });
    expect(report.errors?.[0]?.startsWith(`${url}: `)).toBe(true);
    expect(await api.lines(sub.token)).toHaveLength(20);
  });

  it('contacts no upstream when there are only configs and internal references', async () => {
    const nestedUrl = up().add(upstreamLines(2).join('\n'));
    const lib = await api.create([nestedUrl]);
    const sub = await api.create([vlessUri(), internalRef(lib.token)]);
    const before = up().totalHits();
    const report = await api.refresh(sub.userToken, sub.token);
    expect(report).toMatchObject({ refreshed: 0, failed: 0, skipped: 2, total: 2, errors: null });
    expect(up().totalHits()).toBe(before);
  });

  it('refreshes hidden external sources too', async () => {
    const url = up().add(upstreamLines(2).join('\n'));
    const sub = await api.create([{ data: url, is_hidden: true }]);
    const before = up().hits(url);
    expect(await api.refresh(sub.userToken, sub.token)).toMatchObject({ refreshed: 1, skipped: 0, total: 1 });
    expect(up().hits(url)).toBe(before + 1);
  });

  it('answers with zero counters for a subscription without sources', async () => {
    const sub = await api.create([]);
    expect(await api.refresh(sub.userToken, sub.token)).toMatchObject({
      refreshed: 0,
      failed: 0,
      skipped: 0,
      total: 0,
      errors: null,
    });
  });

  it('serves the new upstream content right after a refresh, even from a warm link', async () => {
    const first = upstreamLines(3);
    const url = up().add(first.join('\n'));
    const own = `${vlessUri()}#Own`;
    const sub = await api.create([own, url]);
    expect(await api.lines(sub.token)).toEqual([own, ...first]);
    const etag = (await t.call('GET', `/api/v1/sub/${sub.token}`)).headers.etag;

    const second = upstreamLines(4);
    up().set(url, second.join('\n'));
    expect(await api.refresh(sub.userToken, sub.token)).toMatchObject({ refreshed: 1, failed: 0 });
    expect(await api.lines(sub.token)).toEqual([own, ...second]);
    const after = await t.call('GET', `/api/v1/sub/${sub.token}`, { headers: { 'if-none-match': etag as string } });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
  });

  it('new content reaches every subscription using the URL, including ones that include it', async () => {
    const url = up().add(upstreamLines(2).join('\n'));
    const a = await api.create([url]);
    const b = await api.create([url]);
    const holder = await api.create([internalRef(b.token)]);
    await Promise.all([a, b, holder].map((s) => api.lines(s.token)));
    const next = upstreamLines(3);
    up().set(url, next.join('\n'));
    await api.refresh(a.userToken, a.token);
    expect(await api.lines(b.token)).toEqual(next);
    expect(await api.lines(holder.token)).toEqual(next);
  });

  it('unchanged upstream content keeps the ETag', async () => {
    const url = up().add(upstreamLines(2).join('\n'));
    const sub = await api.create([url]);
    const etag = (await t.call('GET', `/api/v1/sub/${sub.token}`)).headers.etag as string;
    await api.refresh(sub.userToken, sub.token);
    const res = await t.call('GET', `/api/v1/sub/${sub.token}`, { headers: { 'if-none-match': etag } });
    expect(res.statusCode).toBe(304);
  });

  it('concurrent refreshes of one URL share a single upstream request', async () => {
    const url = up().add(upstreamLines(2).join('\n'));
    const a = await api.create([url]);
    const b = await api.create([url]);
    up().set(url, slow(200, upstreamLines(3).join('\n')));
    const before = up().hits(url);
    const reports = await Promise.all([api.refresh(a.userToken, a.token), api.refresh(b.userToken, b.token)]);
    expect(reports.map((r) => r.refreshed)).toEqual([1, 1]);
    expect(up().hits(url)).toBe(before + 1);
  });

  it('answers 404 subscription_not_found for unknown and malformed tokens', async () => {
    const { token } = await t.newUser();
    expectError(await api.call(token, 'Q'.repeat(43)), 404, 'subscription_not_found');
    expectError(await api.call(token, 'bad%24token'), 404, 'subscription_not_found');
  });

  it("answers 403 forbidden for another user's subscription and fetches nothing", async () => {
    const url = up().add(upstreamLines(2).join('\n'));
    const sub = await api.create([url]);
    const other = await t.newUser();
    const before = up().hits(url);
    expectError(await api.call(other.token, sub.token), 403, 'forbidden');
    expect(up().hits(url)).toBe(before);
  });

  it('answers 401 without an API token', async () => {
    const sub = await api.create([]);
    expectError(await api.call(undefined, sub.token), 401, 'missing_token');
  });
});
