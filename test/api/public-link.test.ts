// The public subscription link end to end over HTTP (docs/api.md, The public link), with a real local upstream for external sources.
import { expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describeEachDatabase, startTestApp, useTestApp, type TestApp } from '../support/harness.js';
import { internalRef, subsApi, unique, vlessUri, type Source } from '../support/factories.js';
import { expectError } from '../support/expect.js';
import {
  base64,
  chunked,
  redirect,
  slow,
  text,
  upstreamLines,
  useUpstream,
  type UpstreamServer,
} from '../support/upstream-server.js';

/** RFC 3986 percent-encoding (encodeURIComponent also escapes !'()*). */
const rfc3986 = (value: string): string =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A config source with an explicit comment: what to send, and the line the link must serve for it. */
function configSource(label = unique('cfg')): { input: string; line: string } {
  const uri = vlessUri();
  return { input: `${uri}#${rfc3986(label)}`, line: `${uri}#${rfc3986(label)}` };
}

/** The lines of a default (base64) body, checking it is standard padded base64. */
function decodeBody(body: string): string[] {
  expect(body).toMatch(/^[A-Za-z0-9+/]*={0,2}$/);
  expect(body.length % 4).toBe(0);
  const plain = Buffer.from(body, 'base64').toString('utf8');
  return plain === '' ? [] : plain.split('\n');
}

interface SubscriptionView {
  token: string;
  name: string;
  sources_count: number;
  sources: Array<Source & { last_error: string | null; last_fetched_at: string | null; configs_count: number | null }>;
}

/** Link and subscription helpers bound to one test app. */
function linkApi(t: TestApp) {
  const api = subsApi(t);
  const helpers = {
    get: (token: string, query = '', headers: Record<string, string> = {}, path = '/api/v1/sub/') =>
      t.call('GET', `${path}${token}${query}`, { headers }),
    /** The lines the link serves now (status 200 asserted). */
    async lines(token: string): Promise<string[]> {
      const res = await helpers.get(token);
      expect(res.statusCode, res.body).toBe(200);
      return decodeBody(res.body);
    },
    /** Creates a subscription for a fresh user (or `userToken`) and returns it with the owner's credentials. */
    async create(sources: unknown[], extra: { name?: string; description?: string; userToken?: string } = {}) {
      const user = extra.userToken ? { token: extra.userToken, userId: 0 } : await t.newUser();
      const res = await t.call('POST', '/api/v1/subs', {
        token: user.token,
        body: { name: extra.name ?? unique('sub'), description: extra.description, sources },
      });
      expect(res.statusCode, res.body).toBe(201);
      return { ...res.json<SubscriptionView>(), userToken: user.token, userId: user.userId };
    },
    async view(userToken: string, token: string): Promise<SubscriptionView> {
      const res = await t.call('GET', `/api/v1/subs/${token}`, { token: userToken });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<SubscriptionView>();
    },
    refresh: (userToken: string, token: string) =>
      t.call('POST', `/api/v1/subs/${token}/refresh`, { token: userToken }),
    api,
  };
  return helpers;
}

const externalOf = (view: SubscriptionView, url: string) => {
  const source = view.sources.find((s) => s.source_type === 'external_url' && s.data === url);
  expect(source, `external source ${url}`).toBeDefined();
  return source as SubscriptionView['sources'][number];
};

describeEachDatabase('public link: output and headers', (kind) => {
  const t = useTestApp(kind);
  const link = linkApi(t);

  it('serves the same body on /api/v1/sub/{token} and /sub/{token}, base64 by default', async () => {
    const [a, b] = [configSource(), configSource()];
    const sub = await link.create([a?.input, b?.input]);
    const canonical = await link.get(sub.token);
    const alias = await link.get(sub.token, '', {}, '/sub/');
    expect(canonical.statusCode).toBe(200);
    expect(alias.statusCode).toBe(200);
    expect(decodeBody(canonical.body)).toEqual([a?.line, b?.line]);
    expect(alias.body).toBe(canonical.body);
    expect(alias.headers.etag).toBe(canonical.headers.etag);
    const explicit = await link.get(sub.token, '?format=base64');
    expect(explicit.body).toBe(canonical.body);
  });

  it('format=plain serves the lines joined by newlines on both paths', async () => {
    const [a, b] = [configSource('Frankfurt 1'), configSource('Дом ✓')];
    const sub = await link.create([a?.input, b?.input]);
    for (const path of ['/api/v1/sub/', '/sub/']) {
      const res = await link.get(sub.token, '?format=plain', {}, path);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(`${a?.line}\n${b?.line}`);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    }
  });

  it('serves an empty body for a subscription without sources', async () => {
    const sub = await link.create([]);
    const res = await link.get(sub.token);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });

  it.each(['json', 'PLAIN', 'base64url', '', 'toString', '__proto__'])('answers 400 for format=%j', async (format) => {
    const sub = await link.create([configSource().input]);
    const { details } = expectError(await link.get(sub.token, `?format=${format}`), 400, 'unknown_format');
    expect(details).toEqual({
      format,
      formats: ['base64', 'plain', 'mihomo', 'sing-box', 'xray', 'sip008', 'clash'],
    });
  });

  it('sends the subscription headers', async () => {
    const sub = await link.create([configSource().input], { name: 'Home VPN', description: 'Family – Дом' });
    const res = await link.get(sub.token);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['profile-title']).toBe(`base64:${base64('Family – Дом')}`);
    expect(res.headers['profile-update-interval']).toBe('1');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Home VPN.txt"; filename*=UTF-8''Home%20VPN.txt`,
    );
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
  });

  it('profile-title falls back to the name when there is no description', async () => {
    const sub = await link.create([], { name: 'Только имя' });
    const res = await link.get(sub.token);
    expect(res.headers['profile-title']).toBe(`base64:${base64('Только имя')}`);
  });

  it.each([
    ['a unicode name', 'Мой VPN 🇩🇪', 'VPN'],
    ['a name with quotes and backslashes', 'My "best" \\ list', 'best'],
  ])(
    'content-disposition carries an ASCII filename and the exact UTF-8 name for %s',
    async (_title, name, asciiPart) => {
      const sub = await link.create([], { name });
      const header = (await link.get(sub.token)).headers['content-disposition'] as string;
      const match = /^attachment; filename="([^"\\]*)\.txt"; filename\*=UTF-8''([A-Za-z0-9%._~-]+)$/.exec(header);
      expect(match, header).not.toBeNull();
      expect(match?.[1]).toMatch(/^[\x20-\x7e]+$/);
      expect(match?.[1]).toContain(asciiPart);
      expect(match?.[2]).toBe(`${rfc3986(name)}.txt`);
      expect(decodeURIComponent(match?.[2] ?? '')).toBe(`${name}.txt`);
    },
  );

  it('answers 304 with an empty body to a matching If-None-Match (exact, W/ and list forms)', async () => {
    const sub = await link.create([configSource().input]);
    const first = await link.get(sub.token);
    const etag = first.headers.etag as string;
    for (const header of [etag, `W/${etag}`, `"nope", ${etag}`, `"a",W/${etag} , "b"`]) {
      const res = await link.get(sub.token, '', { 'if-none-match': header });
      expect(res.statusCode, header).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(etag);
    }
    const miss = await link.get(sub.token, '', { 'if-none-match': '"something-else", W/"other"' });
    expect(miss.statusCode).toBe(200);
    expect(miss.body).toBe(first.body);
  });

  it('gives each format its own ETag and a new ETag when the content changes', async () => {
    const sub = await link.create([configSource().input]);
    const b64 = await link.get(sub.token);
    const plain = await link.get(sub.token, '?format=plain');
    expect(plain.headers.etag).not.toBe(b64.headers.etag);
    expect(
      (await link.get(sub.token, '?format=plain', { 'if-none-match': b64.headers.etag as string })).statusCode,
    ).toBe(200);

    const added = await link.api.add(sub.userToken, sub.token, [configSource().input]);
    expect(added.statusCode, added.body).toBe(200);
    const after = await link.get(sub.token, '', { 'if-none-match': b64.headers.etag as string });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(b64.headers.etag);
    expect(decodeBody(after.body)).toHaveLength(2);
  });
});

describeEachDatabase('public link: unknown and unavailable subscriptions', (kind) => {
  const t = useTestApp(kind);
  const link = linkApi(t);
  const unknownToken = 'A'.repeat(43);

  it.each(['/api/v1/sub/', '/sub/'])('answers 404 subscription_not_found for an unknown token on %s', async (path) => {
    const res = await link.get(unknownToken, '', {}, path);
    expectError(res, 404, 'subscription_not_found');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['profile-title']).toBeUndefined();
  });

  it.each([
    ['punctuation', '%24%24%24'],
    ['a dot segment', 'a.b'],
    ['an overlong token', 'x'.repeat(300)],
  ])('answers 404 subscription_not_found for a malformed token (%s)', async (_title, token) => {
    expectError(await link.get(token), 404, 'subscription_not_found');
  });

  /**
   * Deactivation written straight to the database publishes no change event, so a fresh app over the same database
   * (cold cache) shows what the data alone says.
   */
  async function deactivateAndReadFresh(userId: number, read: (fresh: FastifyInstance) => Promise<void>) {
    await t.database.db.updateTable('users').set({ is_active: 0 }).where('user_id', '=', userId).execute();
    const { app: fresh } = await startTestApp(t.config, t.database);
    try {
      await read(fresh);
    } finally {
      await fresh.close();
    }
  }

  it('answers 404 for a subscription whose owner is inactive', async () => {
    const sub = await link.create([configSource().input]);
    await deactivateAndReadFresh(sub.userId, async (fresh) => {
      for (const path of ['/api/v1/sub/', '/sub/']) {
        expectError(await fresh.inject({ method: 'GET', url: `${path}${sub.token}` }), 404, 'subscription_not_found');
      }
    });
  });

  it('leaves out subscriptions of inactive owners when they are included by another one', async () => {
    const own = configSource();
    const inner = await link.create([configSource().input]);
    const outer = await link.create([own.input, internalRef(inner.token)]);
    expect(outer.sources_count).toBe(2);
    await deactivateAndReadFresh(inner.userId, async (fresh) => {
      const res = await fresh.inject({ method: 'GET', url: `/api/v1/sub/${outer.token}` });
      expect(res.statusCode).toBe(200);
      expect(decodeBody(res.body)).toEqual([own.line]);
      const view = await fresh.inject({
        method: 'GET',
        url: `/api/v1/subs/${outer.token}`,
        headers: { 'api-token': outer.userToken },
      });
      expect(view.json<SubscriptionView>().sources_count).toBe(1);
    });
  });

  // Deactivation through the admin API with a warm cache is covered in admin-users.test.ts.
});

describeEachDatabase('public link: upstream content', (kind) => {
  const t = useTestApp(kind);
  const link = linkApi(t);
  const upstream = useUpstream();
  const up = (): UpstreamServer => upstream.current;

  /** Creates a subscription holding only `url` and returns the lines its link serves. */
  const servedFrom = async (url: string) => link.lines((await link.create([url])).token);

  // Fixed labels keep the encodings deterministic; the unicode remark makes '+' or '/' appear in standard base64.
  const lines = upstreamLines(3, 'fmt').map((l, i) => `${l}%20${rfc3986(['🇩🇪', 'Ω', '✓'][i] ?? '')}`);
  const plain = lines.join('\n');
  const std = base64(`${plain}\n`.length % 3 === 0 ? `${plain}\n\n` : `${plain}\n`);
  const urlSafe = std.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const junk = [
    '# profile header',
    '',
    `   ${lines[0]}  `,
    '// note',
    'not a config',
    'https://example.com/page',
    'vless://broken',
    lines[1],
    '',
    lines[2],
    '',
  ];

  it('the encodings used below really differ (test precondition)', () => {
    expect(std).toMatch(/=$/);
    expect(std).toMatch(/[+/]/);
    expect(urlSafe).toMatch(/[-_]/);
    expect(urlSafe).not.toMatch(/=/);
  });

  it.each([
    ['plain text', plain],
    ['plain text with CRLF and a BOM', `\uFEFF${lines.join('\r\n')}\r\n`],
    ['standard padded base64', std],
    ['URL-safe unpadded base64', urlSafe],
    ['base64 wrapped at 76 columns', (std.match(/.{1,76}/g) ?? []).join('\r\n')],
    ['base64 wrapped at 64 columns with surrounding whitespace', `\n  ${(std.match(/.{1,64}/g) ?? []).join('\n')}\n\n`],
    ['plain text with junk and comment lines', junk.join('\r\n')],
    ['base64 of text with junk and comment lines', base64(junk.join('\n'))],
  ])('serves the config lines of an upstream body in %s', async (_title, body) => {
    expect(await servedFrom(up().add(body))).toEqual(lines);
  });

  it('keeps upstream remarks and drops upstream duplicates', async () => {
    const [a, b] = upstreamLines(2);
    const dupe = `${(a as string).split('#')[0]}#Another%20name`;
    expect(await servedFrom(up().add([a, b, dupe, a].join('\n')))).toEqual([a, b]);
  });

  it('an upstream error on the first fetch is recorded on the source; the request still succeeds', async () => {
    const own = configSource();
    const url = up().add(text('boom', 500));
    const sub = await link.create([own.input, url]);
    const source = externalOf(sub, url);
    expect(source.last_error).toContain('500');
    expect(source.last_fetched_at).toBeNull();
    expect(source.configs_count).toBe(0);
    expect(sub.sources_count).toBe(1);
    expect(await link.lines(sub.token)).toEqual([own.line]);
    expect(up().hits(url)).toBe(1);
  });

  it('an upstream error on the first fetch after adding a source does not fail the add', async () => {
    const sub = await link.create([]);
    const url = up().add(text('gone', 404));
    const res = await link.api.add(sub.userToken, sub.token, [url]);
    expect(res.statusCode, res.body).toBe(200);
    expect(externalOf(res.json<SubscriptionView>(), url).last_error).toContain('404');
    expect(await link.lines(sub.token)).toEqual([]);
  });

  it('records when an upstream serves no proxy configs at all', async () => {
    const url = up().add('<html>maintenance</html>');
    const sub = await link.create([url]);
    expect(externalOf(sub, url).last_error).toEqual(expect.any(String));
    expect(await link.lines(sub.token)).toEqual([]);
  });

  it('follows redirects (absolute and relative Location) to the content', async () => {
    const content = upstreamLines(2);
    const target = up().add(content.join('\n'));
    const hop = up().add(redirect(target, 301));
    const relative = up().add(redirect(new URL(hop).pathname, 307));
    const sub = await link.create([relative]);
    expect(externalOf(sub, relative).last_error).toBeNull();
    expect(await link.lines(sub.token)).toEqual(content);
    expect([up().hits(relative), up().hits(hop), up().hits(target)]).toEqual([1, 1, 1]);
  });

  it('refuses a redirect chain longer than FETCH_MAX_REDIRECTS', async () => {
    let url = up().add(upstreamLines(1).join('\n'));
    for (let i = 0; i < 4; i++) url = up().add(redirect(url));
    const sub = await link.create([url]);
    expect(externalOf(sub, url).last_error).toMatch(/redirect/i);
    expect(await link.lines(sub.token)).toEqual([]);
  });

  it.each([
    ['an empty body', text('')],
    ['an HTTP 500', text('upstream down', 500)],
    ['a body without proxy configs', text('# nothing here\nhello\n')],
  ])('keeps the last good content when a later fetch returns %s (stale-on-error)', async (_title, failing) => {
    const good = upstreamLines(5);
    const url = up().add(good.join('\n'));
    const sub = await link.create([url]);
    const fetchedAt = externalOf(sub, url).last_fetched_at;
    expect(fetchedAt).not.toBeNull();
    expect(await link.lines(sub.token)).toEqual(good);

    up().set(url, failing);
    const res = await link.refresh(sub.userToken, sub.token);
    expect(res.json()).toMatchObject({ refreshed: 0, failed: 1 });
    expect(await link.lines(sub.token)).toEqual(good);
    const after = externalOf(await link.view(sub.userToken, sub.token), url);
    expect(after.last_error).toEqual(expect.any(String));
    expect(after.last_fetched_at).toBe(fetchedAt);
    expect(after.configs_count).toBe(5);

    const recovered = upstreamLines(4);
    up().set(url, recovered.join('\n'));
    expect((await link.refresh(sub.userToken, sub.token)).json()).toMatchObject({ refreshed: 1, failed: 0 });
    expect(await link.lines(sub.token)).toEqual(recovered);
    expect(externalOf(await link.view(sub.userToken, sub.token), url).last_error).toBeNull();
  });

  it.each([
    [20, 3, false],
    [20, 5, false],
    [20, 6, true],
    [20, 10, true],
    [10, 2, false],
    [9, 1, true],
  ])('a fetch shrinking from %i to %i lines is accepted: %s', async (before, after, accepted) => {
    const first = upstreamLines(before);
    const url = up().add(first.join('\n'));
    const sub = await link.create([url]);
    expect(await link.lines(sub.token)).toEqual(first);

    const second = upstreamLines(after);
    up().set(url, second.join('\n'));
    const report = (await link.refresh(sub.userToken, sub.token)).json<{ refreshed: number; failed: number }>();
    expect(report.refreshed).toBe(accepted ? 1 : 0);
    expect(report.failed).toBe(accepted ? 0 : 1);
    expect(await link.lines(sub.token)).toEqual(accepted ? second : first);
    const source = externalOf(await link.view(sub.userToken, sub.token), url);
    expect(source.configs_count).toBe(accepted ? after : before);
    expect(source.last_error === null).toBe(accepted);
  });
});

describeEachDatabase('public link: fetch limits', (kind) => {
  const t = useTestApp(kind, { FETCH_TIMEOUT_MS: '300', FETCH_MAX_BYTES: '4096' });
  const link = linkApi(t);
  const upstream = useUpstream();
  const up = (): UpstreamServer => upstream.current;

  it('gives up on a slow upstream after FETCH_TIMEOUT_MS without failing the request', async () => {
    const own = configSource();
    // The upstream would answer after 30 s; finishing well before that shows the 300 ms limit cut the fetch off.
    const url = up().add(slow(30_000, upstreamLines(2).join('\n')));
    const started = Date.now();
    const sub = await link.create([own.input, url]);
    expect(Date.now() - started).toBeLessThan(15_000);
    // Create waits FETCH_TIMEOUT_MS in total (docs/api.md, External sources and refresh), so the timed-out fetch may be recorded just after it answers.
    await expect
      .poll(async () => externalOf(await link.view(sub.userToken, sub.token), url).last_error)
      .toMatch(/time/i);
    expect(await link.lines(sub.token)).toEqual([own.line]);
  });

  it('accepts a body within FETCH_MAX_BYTES', async () => {
    const content = upstreamLines(10);
    expect(Buffer.byteLength(content.join('\n'))).toBeLessThan(4096);
    const url = up().add(chunked(content.join('\n')));
    expect(await link.lines((await link.create([url])).token)).toEqual(content);
  });

  it.each([
    ['with a content-length', (body: string) => text(body)],
    ['streamed without a content-length', (body: string) => chunked(body)],
  ])('refuses a body larger than FETCH_MAX_BYTES %s', async (_title, serve) => {
    const content = upstreamLines(60);
    expect(Buffer.byteLength(content.join('\n'))).toBeGreaterThan(4096);
    const url = up().add(serve(content.join('\n')));
    const sub = await link.create([url]);
    expect(externalOf(sub, url).last_error).toMatch(/large|bytes|size/i);
    expect(await link.lines(sub.token)).toEqual([]);
  });
});

describeEachDatabase('public link: nesting through HTTP', (kind) => {
  const t = useTestApp(kind);
  const link = linkApi(t);
  const upstream = useUpstream();

  it('applies is_hidden and max_depth along a chain of subscriptions of different users', async () => {
    const [hidden, shown, radius0, radius1, own, top] = Array.from({ length: 6 }, () => configSource());
    const feed = upstreamLines(2);
    const url = upstream.current.add(feed.join('\n'));
    const lib = await link.create([
      { data: hidden?.input, is_hidden: true },
      shown?.input,
      { data: radius0?.input, max_depth: 0 },
      { data: radius1?.input, max_depth: 1 },
      { data: url, is_hidden: true },
    ]);
    const mid = await link.create([own?.input, internalRef(lib.token)]);
    const outer = await link.create([top?.input, internalRef(mid.token)]);

    const expected = {
      lib: [shown, radius0, radius1].map((s) => s?.line),
      mid: [own?.line, hidden?.line, shown?.line, radius1?.line, ...feed],
      outer: [top?.line, own?.line, hidden?.line, shown?.line, ...feed],
    };
    expect(await link.lines(lib.token)).toEqual(expected.lib);
    expect(await link.lines(mid.token)).toEqual(expected.mid);
    expect(await link.lines(outer.token)).toEqual(expected.outer);
    for (const [sub, lines] of [
      [lib, expected.lib],
      [mid, expected.mid],
      [outer, expected.outer],
    ] as const) {
      expect((await link.view(sub.userToken, sub.token)).sources_count).toBe(lines.length);
    }
  });

  it('does not follow a hidden reference from its own link, but does from an including one', async () => {
    const [inner, own] = [configSource(), configSource()];
    const lib = await link.create([inner.input]);
    const holder = await link.create([{ data: internalRef(lib.token), is_hidden: true }, own.input]);
    const outer = await link.create([internalRef(holder.token)]);
    expect(await link.lines(holder.token)).toEqual([own.line]);
    expect(await link.lines(outer.token)).toEqual([inner.line, own.line]);
  });

  it('a reference with max_depth 0 is followed only in its own link', async () => {
    const [inner, own] = [configSource(), configSource()];
    const lib = await link.create([inner.input]);
    const holder = await link.create([own.input, { data: internalRef(lib.token), max_depth: 0 }]);
    const outer = await link.create([internalRef(holder.token)]);
    expect(await link.lines(holder.token)).toEqual([own.line, inner.line]);
    expect(await link.lines(outer.token)).toEqual([own.line]);
  });

  it('de-duplicates a config reached through two references, keeping the first comment', async () => {
    const uri = vlessUri();
    const first = await link.create([`${uri}#First`]);
    const second = await link.create([`${uri}#Second`]);
    const holder = await link.create([internalRef(first.token), internalRef(second.token), `${uri}#Own`]);
    expect(await link.lines(holder.token)).toEqual([`${uri}#First`]);
    expect((await link.view(holder.userToken, holder.token)).sources_count).toBe(1);
  });
});

describeEachDatabase('public link: reads after writes', (kind) => {
  const t = useTestApp(kind);
  const link = linkApi(t);
  const upstream = useUpstream();

  /** Reads the link twice (so the second read would come from a warm cache) and returns its lines. */
  const warm = async (token: string) => {
    await link.lines(token);
    return link.lines(token);
  };
  const ok = (res: LightMyRequestResponse, status = 200) => {
    expect(res.statusCode, res.body).toBe(status);
    return res;
  };

  it('never serves stale output after adding, re-commenting, hiding, removing or replacing sources', async () => {
    const [a, b, c] = [configSource(), configSource(), configSource()];
    const sub = await link.create([a.input]);
    expect(await warm(sub.token)).toEqual([a.line]);

    const added = ok(await link.api.add(sub.userToken, sub.token, [b.input])).json<SubscriptionView>();
    expect(await warm(sub.token)).toEqual([a.line, b.line]);

    const idOf = (line: string) => added.sources.find((s) => line.startsWith(s.data.split('#')[0] as string))?.id;
    ok(await link.api.config(sub.userToken, sub.token, { config_id: idOf(a.line), comment: 'Renamed server' }), 204);
    const renamed = `${a.line.split('#')[0]}#Renamed%20server`;
    expect(await warm(sub.token)).toEqual([renamed, b.line]);

    ok(await link.api.config(sub.userToken, sub.token, { config_id: idOf(a.line), is_hidden: true }), 204);
    expect(await warm(sub.token)).toEqual([b.line]);

    ok(await link.api.remove(sub.userToken, sub.token, [idOf(b.line)]));
    expect(await warm(sub.token)).toEqual([]);

    ok(await link.api.replace(sub.userToken, sub.token, [c.input, b.input]));
    expect(await warm(sub.token)).toEqual([c.line, b.line]);
  });

  it('adding an external URL to a warm subscription serves its lines on the next read', async () => {
    const own = configSource();
    const sub = await link.create([own.input]);
    expect(await warm(sub.token)).toEqual([own.line]);
    const feed = upstreamLines(3);
    ok(await link.api.add(sub.userToken, sub.token, [upstream.current.add(feed.join('\n'))]));
    expect(await warm(sub.token)).toEqual([own.line, ...feed]);
  });

  it('renaming or describing a subscription changes the headers at once', async () => {
    const sub = await link.create([configSource().input], { name: 'Before' });
    const title = async () => (await link.get(sub.token)).headers['profile-title'];
    const filename = async () => (await link.get(sub.token)).headers['content-disposition'];
    expect(await title()).toBe(`base64:${base64('Before')}`);

    const patch = (body: unknown) => t.call('PATCH', `/api/v1/subs/${sub.token}`, { token: sub.userToken, body });
    ok(await patch({ name: 'After' }));
    expect(await title()).toBe(`base64:${base64('After')}`);
    expect(await filename()).toContain('filename="After.txt"');
    ok(await patch({ description: 'Described' }));
    expect(await title()).toBe(`base64:${base64('Described')}`);
    ok(await patch({ description: null }));
    expect(await title()).toBe(`base64:${base64('After')}`);
  });

  it('a change in an included subscription reaches the including link at once', async () => {
    const [inner1, inner2, own] = [configSource(), configSource(), configSource()];
    const lib = await link.create([inner1.input]);
    const holder = await link.create([own.input, internalRef(lib.token)]);
    expect(await warm(holder.token)).toEqual([own.line, inner1.line]);

    ok(await link.api.add(lib.userToken, lib.token, [inner2.input]));
    expect(await warm(holder.token)).toEqual([own.line, inner1.line, inner2.line]);

    const id = (await link.view(lib.userToken, lib.token)).sources[0]?.id;
    ok(await link.api.config(lib.userToken, lib.token, { config_id: id, is_hidden: true }), 204);
    expect(await warm(lib.token)).toEqual([inner2.line]);
    expect(await warm(holder.token)).toEqual([own.line, inner1.line, inner2.line]);

    ok(await t.call('DELETE', `/api/v1/subs/${lib.token}`, { token: lib.userToken }), 204);
    expectError(await link.get(lib.token), 404, 'subscription_not_found');
    expect(await warm(holder.token)).toEqual([own.line]);
  });

  it('a deleted subscription answers 404 after it was served', async () => {
    const sub = await link.create([configSource().input]);
    await warm(sub.token);
    ok(await t.call('DELETE', `/api/v1/subs/${sub.token}`, { token: sub.userToken }), 204);
    expectError(await link.get(sub.token), 404, 'subscription_not_found');
  });
});

describeEachDatabase('public link: sources_count and no upstream traffic on reads', (kind) => {
  const t = useTestApp(kind);
  const link = linkApi(t);
  const upstream = useUpstream();

  it('sources_count equals the served lines, and reads never contact the upstream', async () => {
    const up = upstream.current;
    const feedA = upstreamLines(4);
    const feedB = upstreamLines(3);
    const urlA = up.add([...feedA, feedB[0]].join('\n'));
    const urlB = up.add(feedB.join('\n'));
    const [own, hidden, libOwn] = [configSource(), configSource(), configSource()];
    const lib = await link.create([libOwn.input, urlB]);
    const sub = await link.create([own.input, { data: hidden.input, is_hidden: true }, urlA, internalRef(lib.token)]);
    expect([up.hits(urlA), up.hits(urlB)]).toEqual([1, 1]);

    const before = up.totalHits();
    const served = await link.lines(sub.token);
    expect(served).toEqual([own.line, ...feedA, feedB[0], libOwn.line, feedB[1], feedB[2]]);
    expect((await link.view(sub.userToken, sub.token)).sources_count).toBe(served.length);
    const list = (await t.call('GET', '/api/v1/subs', { token: sub.userToken })).json<
      Array<{ token: string; sources_count: number }>
    >();
    expect(list.find((item) => item.token === sub.token)?.sources_count).toBe(served.length);
    expect((await link.view(lib.userToken, lib.token)).sources_count).toBe(1 + feedB.length);
    await link.get(sub.token, '?format=plain');
    await link.get(lib.token, '', {}, '/sub/');
    expect(up.totalHits()).toBe(before);
  });

  it('adding a URL another subscription already uses does not fetch it again', async () => {
    const up = upstream.current;
    const feed = upstreamLines(2);
    const url = up.add(feed.join('\n'));
    await link.create([url]);
    expect(up.hits(url)).toBe(1);
    const second = await link.create([url]);
    expect(up.hits(url)).toBe(1);
    expect(second.sources_count).toBe(2);
    expect(await link.lines(second.token)).toEqual(feed);
  });
});
