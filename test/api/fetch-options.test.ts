// Fetch options per external source (docs/api.md, Fetch options): a user agent and headers sent upstream, validated, and part of the id and the cache key.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import { internalRef, sha32, subsApi, vlessUri, type Source } from '../support/factories.js';
import { expectError } from '../support/expect.js';
import { redirect, upstreamLines, useUpstream, type UpstreamServer } from '../support/upstream-server.js';

function issuePaths(res: LightMyRequestResponse): string[] {
  const details = expectError(res, 400, 'validation_failed').details as { issues: Array<{ path: string }> };
  return details.issues.map((issue) => issue.path);
}

/** Serves `byAgent[user-agent]`, or 404 for any other user agent. */
const byUserAgent =
  (byAgent: Record<string, string>) =>
  (req: IncomingMessage, res: ServerResponse): void => {
    const body = byAgent[req.headers['user-agent'] ?? ''];
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200).end(body);
  };

describeEachDatabase('fetch options: what is sent upstream', (kind) => {
  const t = useTestApp(kind, { FETCH_USER_AGENT: 'subweave-test/1' });
  const api = subsApi(t);
  const upstream = useUpstream();
  const other = useUpstream();
  const up = (): UpstreamServer => upstream.current;
  const plain = async (token: string): Promise<string[]> => {
    const res = await t.call('GET', `/api/v1/sub/${token}?format=plain`);
    return res.body === '' ? [] : res.body.split('\n');
  };

  it('sends the user agent and the headers, and returns them with the source', async () => {
    const url = up().add(upstreamLines(2).join('\n'));
    const fetch = { user_agent: 'Happ/3.1', headers: { 'X-Device-Id': 'dev-1', Accept: 'text/plain' } };
    const sub = await api.create([{ data: url, fetch }]);
    const [sent] = up().headers(url);
    expect(sent).toMatchObject({ 'user-agent': 'Happ/3.1', 'x-device-id': 'dev-1', accept: 'text/plain' });
    expect(sub.sources[0]).toMatchObject({
      fetch: { user_agent: 'Happ/3.1', headers: { accept: 'text/plain', 'x-device-id': 'dev-1' } },
      configs_count: 2,
      last_error: null,
    });

    const refreshed = await t.call('POST', `/api/v1/subs/${sub.token}/refresh`, { token: sub.userToken });
    expect(refreshed.json()).toMatchObject({ refreshed: 1 });
    expect(up().headers(url)[1]).toMatchObject({ 'user-agent': 'Happ/3.1', 'x-device-id': 'dev-1' });
  });

  it('sends FETCH_USER_AGENT and no extra header without options; fetch is null then', async () => {
    const url = up().add(upstreamLines(1).join('\n'));
    const sub = await api.create([url]);
    const [sent] = up().headers(url);
    expect(sent?.['user-agent']).toBe('subweave-test/1');
    expect(sent?.['x-device-id']).toBeUndefined();
    expect(sub.sources[0]?.fetch).toBeNull();
  });

  it('takes a user-agent header as the user agent when user_agent is not given', async () => {
    const url = up().add(upstreamLines(1).join('\n'));
    await api.create([{ data: url, fetch: { headers: { 'User-Agent': 'clash.meta' } } }]);
    expect(up().headers(url)[0]?.['user-agent']).toBe('clash.meta');
  });

  it('sends the headers on same-origin redirects only; the user agent on every hop', async () => {
    const far = other.current.add(upstreamLines(2).join('\n'));
    const near = up().add(upstreamLines(2).join('\n'));
    const hop = up().add(redirect(near));
    const away = up().add(redirect(far));
    const fetch = { user_agent: 'Agent/1', headers: { 'x-secret': 's3' } };
    await api.create([
      { data: hop, fetch },
      { data: away, fetch },
    ]);
    expect(up().headers(near)[0]).toMatchObject({ 'user-agent': 'Agent/1', 'x-secret': 's3' });
    expect(other.current.headers(far)[0]?.['user-agent']).toBe('Agent/1');
    expect(other.current.headers(far)[0]?.['x-secret']).toBeUndefined();
  });

  it('caches by URL and options: the same URL with other options is fetched and served separately', async () => {
    const [forA, forB] = [upstreamLines(2), upstreamLines(3)];
    const url = up().add(byUserAgent({ A: forA.join('\n'), B: forB.join('\n') }));
    const sub = await api.create([
      { data: url, fetch: { user_agent: 'A' } },
      { data: url, fetch: { user_agent: 'B' } },
    ]);
    expect(up().hits(url)).toBe(2);
    expect(sub.sources.map((s) => [s.configs_count, s.last_error])).toEqual([
      [2, null],
      [3, null],
    ]);
    expect(new Set(sub.sources.map((s) => s.id)).size).toBe(2);
    expect(await plain(sub.token)).toEqual([...forA, ...forB]);

    // Another subscription with the same URL and options shares that cache entry: no new fetch.
    const again = await api.create([{ data: url, fetch: { user_agent: 'B' } }]);
    expect(up().hits(url)).toBe(2);
    expect(await plain(again.token)).toEqual(forB);
    // Without options the URL is yet another entry (this upstream answers 404 to the default agent).
    const bare = await api.create([url]);
    expect(up().hits(url)).toBe(3);
    expect(bare.sources[0]?.last_error).toContain('404');

    const report = await t.call('POST', `/api/v1/subs/${sub.token}/refresh`, { token: sub.userToken });
    expect(report.json()).toMatchObject({ refreshed: 2, failed: 0 });
    expect(up().hits(url)).toBe(5);
  });

  it('refreshes, prunes and re-creates cache rows per URL and options in the background refresher', async () => {
    const url = up().add(byUserAgent({ R: upstreamLines(2).join('\n') }));
    const sub = await api.create([{ data: url, fetch: { user_agent: 'R', headers: { 'x-k': '1' } } }]);
    const key = `${url} {"user_agent":"R","headers":{"x-k":"1"}}`;
    const rows = () =>
      t.database.db
        .selectFrom('external_cache')
        .select(['url', 'configs_count'])
        .where('url', 'like', `${url}%`)
        .execute();
    expect(await rows()).toEqual([{ url: key, configs_count: 2 }]);

    await t.database.db.deleteFrom('external_cache').where('url', '=', key).execute();
    const hits = up().hits(url);
    await t.context.external.refreshDue(0, 60);
    expect(up().hits(url)).toBe(hits + 1);
    expect(up().headers(url).at(-1)).toMatchObject({ 'user-agent': 'R', 'x-k': '1' });
    expect(await rows()).toEqual([{ url: key, configs_count: 2 }]);

    const res = await api.replace(sub.userToken, sub.token, [vlessUri()]);
    expect(res.statusCode, res.body).toBe(200);
    await t.context.external.refreshDue(3600, 60);
    expect(await rows()).toEqual([]);
  });

  it('reports a header the HTTP client cannot send in last_error instead of failing the request', async () => {
    const url = up().add(upstreamLines(1).join('\n'));
    const sub = await api.create([{ data: url, fetch: { headers: { expect: '100-continue' } } }]);
    expect(up().hits(url)).toBe(0);
    expect(sub.sources[0]?.last_error).toMatch(/expect/i);
  });

  it("keeps each option set's upstream usage apart: userinfo mode sum adds them", async () => {
    const usage = (req: IncomingMessage, res: ServerResponse): void => {
      const total = req.headers['user-agent'] === 'A' ? 100 : 200;
      res.writeHead(200, { 'subscription-userinfo': `upload=1; download=2; total=${total}; expire=0` });
      res.end(upstreamLines(1).join('\n'));
    };
    const url = up().add(usage);
    const { token } = await t.newUser();
    const created = await t.call('POST', '/api/v1/subs', {
      token,
      body: {
        name: 'usage',
        userinfo: { mode: 'sum' },
        sources: [
          { data: url, fetch: { user_agent: 'A' } },
          { data: url, fetch: { user_agent: 'B' } },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const res = await t.call('GET', `/api/v1/sub/${created.json<{ token: string }>().token}`);
    expect(res.headers['subscription-userinfo']).toBe('upload=2; download=4; total=300; expire=0');
  });

  it('returns data that round-trips with the source objects: same ids, same options', async () => {
    const url = up().add(upstreamLines(1).join('\n'));
    const sub = await api.create([{ data: url, fetch: { headers: { 'X-B': '2', 'x-a': '1' } } }, url]);
    const body = sub.sources.map((s) => ({ data: s.data, fetch: s.fetch }));
    const res = await api.replace(sub.userToken, sub.token, body);
    const again = res.json<{ sources: Source[] }>().sources;
    expect(again.map((s) => [s.id, s.fetch])).toEqual(sub.sources.map((s) => [s.id, s.fetch]));
  });
});

describeEachDatabase('fetch options: identity', (kind) => {
  const t = useTestApp(kind);
  const api = subsApi(t);
  const upstream = useUpstream();
  const up = (): UpstreamServer => upstream.current;

  it('keeps the id of a URL without options; options give another id, equal for equal options', async () => {
    const url = up().add(upstreamLines(1).join('\n'));
    const sub = await api.create([
      url,
      { data: url, fetch: null },
      { data: url, fetch: {} },
      { data: url, fetch: { user_agent: '', headers: {} } },
      { data: url, fetch: { user_agent: null, headers: null } },
      { data: url, fetch: { user_agent: 'U', headers: { 'X-B': '2', 'x-a': '1' } } },
      { data: url, fetch: { headers: { 'x-a': '1', 'x-b': '2' }, user_agent: 'U' } },
      { data: `${url}#frag`, fetch: { headers: { 'X-A': '1', 'X-B': '2' }, user_agent: 'U' } },
    ]);
    const stored = '{"user_agent":"U","headers":{"x-a":"1","x-b":"2"}}';
    expect(sub.sources.map((s) => [s.id, s.fetch])).toEqual([
      [sha32(url), null],
      [sha32(`${url} ${stored}`), { user_agent: 'U', headers: { 'x-a': '1', 'x-b': '2' } }],
    ]);
  });

  it('adds the same URL with other options as a new source, and skips it with equal options', async () => {
    const url = up().add(upstreamLines(1).join('\n'));
    const sub = await api.create([{ data: url, fetch: { user_agent: 'one' } }]);
    const res = await api.add(sub.userToken, sub.token, [
      { data: url, fetch: { user_agent: 'one' } },
      { data: url, fetch: { user_agent: 'two' } },
    ]);
    expect(res.json<{ sources: Source[] }>().sources.map((s) => s.fetch?.user_agent)).toEqual(['one', 'two']);
  });
});

describeEachDatabase('fetch options: validation', (kind) => {
  const t = useTestApp(kind);
  const api = subsApi(t);
  const url = 'https://feed.example.com/sub';

  const refused = async (fetch: unknown, data: string = url): Promise<string[]> => {
    const sub = await api.create();
    const res = await api.add(sub.userToken, sub.token, [vlessUri(), { data, fetch }]);
    const paths = issuePaths(res);
    expect(await api.storedRows(sub.token)).toEqual([]);
    return paths;
  };

  it.each([
    ['longer than 256 characters', 'u'.repeat(257)],
    ['holding a CR', 'a\rb'],
    ['holding a LF', 'a\nb'],
    ['holding a NUL', 'a\u0000b'],
    ['a number', 7],
  ])('refuses a user agent %s at body.sources.1.fetch.user_agent', async (_label, userAgent) => {
    expect(await refused({ user_agent: userAgent })).toContain('body.sources.1.fetch.user_agent');
  });

  it('accepts a user agent of 256 characters and header values of 512', async () => {
    const sub = await api.create([
      { data: url, fetch: { user_agent: 'u'.repeat(256), headers: { x: 'v'.repeat(512) } } },
    ]);
    expect(sub.sources[0]?.fetch?.user_agent).toHaveLength(256);
  });

  it('refuses more than 8 headers at body.sources.1.fetch.headers, and accepts 8', async () => {
    const headers = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-h${i}`, String(i)]));
    expect(await refused({ headers: headers(9) })).toContain('body.sources.1.fetch.headers');
    const sub = await api.create([{ data: url, fetch: { headers: headers(8) } }]);
    expect(Object.keys(sub.sources[0]?.fetch?.headers ?? {})).toHaveLength(8);
  });

  it.each([['Bad Name'], ['x:y'], ['a(b)'], ['ä'], ['']])(
    'refuses the header name %j, which is not an HTTP token',
    async (name) => {
      expect(await refused({ headers: { [name]: 'v' } })).toContain(`body.sources.1.fetch.headers.${name}`);
    },
  );

  it.each([
    ['host'],
    ['Cookie'],
    ['AUTHORIZATION'],
    ['proxy-authorization'],
    ['Content-Length'],
    ['connection'],
    ['Transfer-Encoding'],
    ['TE'],
    ['upgrade'],
  ])('refuses the forbidden header %s', async (name) => {
    expect(await refused({ headers: { 'x-ok': '1', [name]: 'v' } })).toEqual([`body.sources.1.fetch.headers.${name}`]);
  });

  it('refuses a header given twice in different cases', async () => {
    expect(await refused({ headers: { 'X-Token': 'a', 'x-token': 'b' } })).toEqual([
      'body.sources.1.fetch.headers.x-token',
    ]);
  });

  it.each([
    ['longer than 512 characters', 'v'.repeat(513)],
    ['holding a CR', 'a\rb'],
    ['holding a LF', 'a\nb'],
    ['holding a NUL', 'a\u0000b'],
    ['a number', 1],
    ['null', null],
  ])('refuses a header value %s at body.sources.1.fetch.headers.<name>', async (_label, value) => {
    expect(await refused({ headers: { 'x-v': value } })).toContain('body.sources.1.fetch.headers.x-v');
  });

  it.each([
    ['an unknown field', { useragent: 'typo' }, 'body.sources.1.fetch.useragent'],
    ['a string', 'Happ', 'body.sources.1.fetch'],
    ['headers as an array', { headers: [['x', 'y']] }, 'body.sources.1.fetch.headers'],
  ])('refuses fetch as %s', async (_label, fetch, path) => {
    expect(await refused(fetch)).toContain(path);
  });

  it('refuses fetch options on a config or a reference, and accepts empty ones there', async () => {
    expect(await refused({ user_agent: 'x' }, vlessUri())).toEqual(['body.sources.1.fetch']);
    const target = await api.create();
    expect(await refused({ headers: { 'x-a': '1' } }, internalRef(target.token))).toEqual(['body.sources.1.fetch']);
    const sub = await api.create([
      { data: vlessUri(), fetch: {} },
      { data: internalRef(target.token), fetch: null },
    ]);
    expect(sub.sources.map((s) => s.fetch)).toEqual([null, null]);
  });
});
