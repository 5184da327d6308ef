// A real shrink is accepted (docs/api.md): a shrunken or empty result is held until it has come on 3 consecutive fetches, or taken at once with accept_shrink.
import { expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDatabase, useTestApp, type TestApp } from '../support/harness.js';
import { internalRef, unique, vlessUri, type Source, plainLines } from '../support/factories.js';
import { expectError } from '../support/expect.js';
import { slow, text, upstreamLines, useUpstream, type UpstreamServer } from '../support/upstream-server.js';
import type { RefreshReport } from '../../src/modules/subscriptions/subscription-refresh.js';

function shrinkApi(t: TestApp) {
  const api = {
    async create(sources: unknown[]) {
      const { token: userToken } = await t.newUser();
      const res = await t.call('POST', '/api/v1/subs', { token: userToken, body: { name: unique('s'), sources } });
      expect(res.statusCode, res.body).toBe(201);
      return { token: res.json<{ token: string }>().token, userToken };
    },
    post: (userToken: string, token: string, body?: unknown, headers?: Record<string, string>) =>
      t.call('POST', `/api/v1/subs/${token}/refresh`, {
        token: userToken,
        ...(body !== undefined ? { body } : {}),
        ...(headers ? { headers } : {}),
      }),
    async refresh(sub: { userToken: string; token: string }, body?: unknown): Promise<RefreshReport> {
      const res = await api.post(sub.userToken, sub.token, body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<RefreshReport>();
    },
    async sources(sub: { userToken: string; token: string }): Promise<Source[]> {
      const res = await t.call('GET', `/api/v1/subs/${sub.token}`, { token: sub.userToken });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ sources: Source[] }>().sources;
    },
    async external(sub: { userToken: string; token: string }): Promise<Source> {
      const found = (await api.sources(sub)).find((s) => s.source_type === 'external_url');
      expect(found).toBeDefined();
      return found as Source;
    },
    lines: (token: string): Promise<string[]> => plainLines(t, token),
  };
  return api;
}

describeEachDatabase('shrink guard: a real shrink is accepted', (kind) => {
  const t = useTestApp(kind);
  const api = shrinkApi(t);
  const upstream = useUpstream();
  const up = (): UpstreamServer => upstream.current;

  /** A subscription on an upstream that served `count` lines first. */
  async function started(count = 20) {
    const first = upstreamLines(count);
    const url = up().add(first.join('\n'));
    const sub = await api.create([url]);
    expect(await api.lines(sub.token)).toEqual(first);
    return { url, sub, first };
  }

  it('holds the same shrunken result twice and accepts it on the third consecutive fetch', async () => {
    const { url, sub, first } = await started();
    const shrunk = upstreamLines(3);
    up().set(url, shrunk.join('\n'));

    for (const round of [1, 2]) {
      expect(await api.refresh(sub)).toMatchObject({ refreshed: 0, failed: 1 });
      const source = await api.external(sub);
      expect(source.shrink_pending).toBe(true);
      expect(source.last_error).toContain(`${round} of 3`);
      expect(source.configs_count).toBe(20);
      expect(await api.lines(sub.token)).toEqual(first);
    }
    expect(await api.refresh(sub)).toMatchObject({ refreshed: 1, failed: 0, errors: null });
    expect(await api.lines(sub.token)).toEqual(shrunk);
    expect(await api.external(sub)).toMatchObject({ shrink_pending: false, last_error: null, configs_count: 3 });
    expect(up().hits(url)).toBe(4);
  });

  it('counts the same servers in another order and with other remarks as the same result', async () => {
    const { url, sub } = await started();
    const shrunk = upstreamLines(4);
    const variants = [shrunk, [...shrunk].reverse(), shrunk.map((line, i) => `${line.split('#')[0]}#left%20${i}GB`)];
    for (const [i, variant] of variants.entries()) {
      up().set(url, variant.join('\n'));
      expect((await api.refresh(sub)).refreshed).toBe(i === 2 ? 1 : 0);
    }
    expect(await api.lines(sub.token)).toEqual(variants[2]);
  });

  it('restarts the count when a different shrunken result comes', async () => {
    const { url, sub, first } = await started();
    const a = upstreamLines(3);
    const b = upstreamLines(4);
    for (const body of [a, a, b]) {
      up().set(url, body.join('\n'));
      expect((await api.refresh(sub)).failed).toBe(1);
    }
    expect((await api.external(sub)).last_error).toContain('1 of 3');
    expect(await api.lines(sub.token)).toEqual(first);
    up().set(url, b.join('\n'));
    expect((await api.refresh(sub)).failed).toBe(1);
    expect((await api.refresh(sub)).refreshed).toBe(1);
    expect(await api.lines(sub.token)).toEqual(b);
  });

  it('restarts the count after a failed fetch, and forgets a held shrink when a full result comes', async () => {
    const { url, sub, first } = await started();
    const shrunk = upstreamLines(2);
    up().set(url, shrunk.join('\n'));
    await api.refresh(sub);
    await api.refresh(sub);
    up().set(url, text('down', 503));
    expect((await api.refresh(sub)).failed).toBe(1);
    expect((await api.external(sub)).shrink_pending).toBe(false);
    up().set(url, shrunk.join('\n'));
    expect((await api.refresh(sub)).failed).toBe(1);
    expect((await api.external(sub)).last_error).toContain('1 of 3');

    const full = upstreamLines(18);
    up().set(url, full.join('\n'));
    expect((await api.refresh(sub)).refreshed).toBe(1);
    expect(await api.external(sub)).toMatchObject({ shrink_pending: false, last_error: null, configs_count: 18 });
    expect(await api.lines(sub.token)).toEqual(full);
    expect(first).not.toEqual(full);
  });

  it('accepts a shrink at once with {"accept_shrink": true}, held or not', async () => {
    const { url, sub } = await started();
    const shrunk = upstreamLines(3);
    up().set(url, shrunk.join('\n'));
    expect((await api.refresh(sub, { accept_shrink: true })).refreshed).toBe(1);
    expect(await api.lines(sub.token)).toEqual(shrunk);

    const other = await started(30);
    const smaller = upstreamLines(5);
    up().set(other.url, smaller.join('\n'));
    await api.refresh(other.sub);
    expect((await api.external(other.sub)).shrink_pending).toBe(true);
    expect((await api.refresh(other.sub, { accept_shrink: true })).refreshed).toBe(1);
    expect(await api.external(other.sub)).toMatchObject({ shrink_pending: false, configs_count: 5 });
    expect(await api.lines(other.sub.token)).toEqual(smaller);
  });

  it('holds an empty answer like a shrink and accepts it on the third consecutive fetch', async () => {
    const { url, sub, first } = await started(12);
    up().set(url, '# nothing here\n');
    for (const round of [1, 2]) {
      expect(await api.refresh(sub)).toMatchObject({ refreshed: 0, failed: 1 });
      const source = await api.external(sub);
      expect(source).toMatchObject({ shrink_pending: true, configs_count: 12 });
      expect(source.last_error).toContain('no proxy configs');
      expect(source.last_error).toContain(`${round} of 3`);
      expect(await api.lines(sub.token)).toEqual(first);
    }
    expect(await api.refresh(sub)).toMatchObject({ refreshed: 1, failed: 0, errors: null });
    expect(await api.external(sub)).toMatchObject({ shrink_pending: false, last_error: null, configs_count: 0 });
    expect(await api.lines(sub.token)).toEqual([]);
    // Empty is now the last good content: another empty answer is no shrink.
    expect((await api.refresh(sub)).refreshed).toBe(1);
    expect((await api.external(sub)).shrink_pending).toBe(false);
  });

  it('accepts an empty answer at once with {"accept_shrink": true}, also after fewer than 10 configs', async () => {
    const { url, sub, first } = await started(4);
    up().set(url, '');
    expect((await api.refresh(sub)).failed).toBe(1);
    expect(await api.external(sub)).toMatchObject({ shrink_pending: true, configs_count: 4 });
    expect(await api.lines(sub.token)).toEqual(first);
    expect((await api.refresh(sub, { accept_shrink: true })).refreshed).toBe(1);
    expect(await api.external(sub)).toMatchObject({ shrink_pending: false, last_error: null, configs_count: 0 });
    expect(await api.lines(sub.token)).toEqual([]);
  });

  it('does not let an accepting refresh join a running one that would hold the shrink back', async () => {
    const { url, sub } = await started();
    const shrunk = upstreamLines(2);
    up().set(url, slow(300, shrunk.join('\n')));
    const hits = up().hits(url);
    const plainRefresh = api.refresh(sub);
    // The accepting refresh starts while the plain one's fetch is at the upstream.
    await expect.poll(() => up().hits(url), { interval: 5, timeout: 2000 }).toBe(hits + 1);
    const [plain, accepting] = await Promise.all([plainRefresh, api.refresh(sub, { accept_shrink: true })]);
    expect(plain.failed).toBe(1);
    expect(accepting.refreshed).toBe(1);
    expect(up().hits(url)).toBe(hits + 2);
    expect(await api.lines(sub.token)).toEqual(shrunk);
  });

  it('shows shrink_pending false for a healthy external source and null for other kinds', async () => {
    const url = up().add(upstreamLines(2).join('\n'));
    const lib = await api.create([vlessUri()]);
    const sub = await api.create([url, vlessUri(), internalRef(lib.token)]);
    expect((await api.sources(sub)).map((s) => [s.source_type, s.shrink_pending])).toEqual([
      ['external_url', false],
      ['config', null],
      ['internal_token', null],
    ]);
  });

  it('takes no body, an empty JSON body, {} or null as a plain refresh', async () => {
    const url = up().add(upstreamLines(2).join('\n'));
    const sub = await api.create([url]);
    const answers: LightMyRequestResponse[] = [
      await api.post(sub.userToken, sub.token),
      await api.post(sub.userToken, sub.token, '', { 'content-type': 'application/json' }),
      await api.post(sub.userToken, sub.token, {}),
      await api.post(sub.userToken, sub.token, 'null', { 'content-type': 'application/json' }),
      await api.post(sub.userToken, sub.token, { accept_shrink: false }),
    ];
    for (const res of answers) expect(res.json<RefreshReport>(), res.body).toMatchObject({ refreshed: 1 });
  });

  it.each([
    ['a string', { accept_shrink: 'yes' }, 'body.accept_shrink'],
    ['a number', { accept_shrink: 1 }, 'body.accept_shrink'],
    ['null', { accept_shrink: null }, 'body.accept_shrink'],
    ['an array body', [true], 'body'],
  ])('refuses accept_shrink as %s with 400 validation_failed', async (_label, body, path) => {
    const sub = await api.create([vlessUri()]);
    const res = await api.post(sub.userToken, sub.token, body);
    const details = expectError(res, 400, 'validation_failed').details as { issues: Array<{ path: string }> };
    expect(details.issues.map((issue) => issue.path)).toContain(path);
  });
});
