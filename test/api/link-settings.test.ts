// Per-subscription link settings (docs/api.md, Link settings): validation, defaults, get/list, both mounts, and the headers and page of the link.
import { expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import { approvedPair, internalRef, trojanUri, unique, vlessUri } from '../support/factories.js';
import { expectError, expectStatus } from '../support/expect.js';
import { base64, upstreamLines, useUpstream, type Handler } from '../support/upstream-server.js';

const SUBS = '/api/v1/subs';
const BROWSER = { accept: 'text/html' };

interface Settings {
  update_interval_hours: number;
  support_url: string | null;
  web_page_url: string | null;
  announce: string | null;
  userinfo: { mode: string; upload?: number; download?: number; total?: number; expire?: number };
}
type Subscription = Settings & { token: string; name: string };

const DEFAULTS: Settings = {
  update_interval_hours: 1,
  support_url: null,
  web_page_url: null,
  announce: null,
  userinfo: { mode: 'none' },
};
const PROFILE_HEADERS = ['support-url', 'profile-web-page-url', 'announce', 'subscription-userinfo'];

function settingsOf(sub: Subscription): Settings {
  const { update_interval_hours, support_url, web_page_url, announce, userinfo } = sub;
  return { update_interval_hours, support_url, web_page_url, announce, userinfo };
}

function issuePaths(response: LightMyRequestResponse): string[] {
  const details = expectError(response, 400, 'validation_failed').details as { issues: Array<{ path: string }> };
  return details.issues.map((issue) => issue.path);
}

describeEachDatabase('link settings', (kind) => {
  const t = useTestApp(kind);

  async function create(userToken: string, settings: Record<string, unknown> = {}, base = SUBS) {
    const res = await t.call('POST', base, {
      token: userToken,
      body: { name: unique('s'), sources: [vlessUri(), trojanUri()], ...settings },
    });
    return expectStatus(res, 201).json<Subscription>();
  }
  const patch = (userToken: string, token: string, body: unknown, base = SUBS) =>
    t.call('PATCH', `${base}/${token}`, { token: userToken, body });
  const get = async (userToken: string, token: string, base = SUBS) =>
    expectStatus(await t.call('GET', `${base}/${token}`, { token: userToken }), 200).json<Subscription>();
  const listed = async (userToken: string, token: string, base = SUBS) =>
    expectStatus(await t.call('GET', base, { token: userToken }), 200)
      .json<Subscription[]>()
      .find((s) => s.token === token);
  const link = (token: string, headers: Record<string, string> = {}) => t.call('GET', `/sub/${token}`, { headers });

  it('defaults: interval 1, no URLs, no announce, userinfo {"mode":"none"}; the link sends only title and interval', async () => {
    const { token } = await t.newUser();
    const sub = await create(token);
    expect(settingsOf(sub)).toEqual(DEFAULTS);
    expect(settingsOf(await get(token, sub.token))).toEqual(DEFAULTS);
    expect(settingsOf((await listed(token, sub.token)) as Subscription)).toEqual(DEFAULTS);
    const res = await link(sub.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['profile-update-interval']).toBe('1');
    for (const header of PROFILE_HEADERS) expect(res.headers[header], header).toBeUndefined();
  });

  it('create sets every setting; get, list and the link headers carry them', async () => {
    const { token } = await t.newUser();
    const settings: Settings = {
      update_interval_hours: 24,
      support_url: 'https://t.me/support_bot',
      web_page_url: 'http://panel.example.com/me?x=1',
      announce: 'Maintenance on Sunday 02:00 UTC.',
      userinfo: { mode: 'fixed', upload: 1024, download: 2048, total: 10_737_418_240, expire: 1_893_456_000 },
    };
    const sub = await create(token, { ...settings });
    expect(settingsOf(sub)).toEqual(settings);
    expect(settingsOf(await get(token, sub.token))).toEqual(settings);
    expect(settingsOf((await listed(token, sub.token)) as Subscription)).toEqual(settings);
    const res = await link(sub.token);
    expect(res.headers['profile-update-interval']).toBe('24');
    expect(res.headers['support-url']).toBe('https://t.me/support_bot');
    expect(res.headers['profile-web-page-url']).toBe('http://panel.example.com/me?x=1');
    expect(res.headers['announce']).toBe('Maintenance on Sunday 02:00 UTC.');
    expect(res.headers['subscription-userinfo']).toBe(
      'upload=1024; download=2048; total=10737418240; expire=1893456000',
    );
    for (const format of ['plain', 'mihomo']) {
      const other = await t.call('GET', `/sub/${sub.token}/${format}`);
      expect(other.headers['announce'], format).toBe('Maintenance on Sunday 02:00 UTC.');
      expect(other.headers['profile-update-interval'], format).toBe('24');
    }
  });

  it('refuses every invalid setting with 400 validation_failed naming the field, on create and PATCH', async () => {
    const { token } = await t.newUser();
    const sub = await create(token, { announce: 'kept', update_interval_hours: 5 });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ update_interval_hours: 0 }, 'body.update_interval_hours'],
      [{ update_interval_hours: 169 }, 'body.update_interval_hours'],
      [{ update_interval_hours: -1 }, 'body.update_interval_hours'],
      [{ update_interval_hours: 1.5 }, 'body.update_interval_hours'],
      [{ update_interval_hours: '2' }, 'body.update_interval_hours'],
      [{ support_url: 'ftp://files.example.com/' }, 'body.support_url'],
      [{ support_url: 'javascript:alert(1)' }, 'body.support_url'],
      [{ support_url: 'tg://resolve?domain=x' }, 'body.support_url'],
      [{ support_url: 'example.com/help' }, 'body.support_url'],
      [{ support_url: '/help' }, 'body.support_url'],
      [{ support_url: '' }, 'body.support_url'],
      [{ support_url: 'https://' }, 'body.support_url'],
      [{ support_url: 'https://example.com/a b' }, 'body.support_url'],
      [{ support_url: ' https://example.com/' }, 'body.support_url'],
      [{ support_url: 'https://example.com/\n' }, 'body.support_url'],
      [{ support_url: 'https://example.com/\u0085' }, 'body.support_url'],
      [{ support_url: `https://example.com/${'a'.repeat(2049 - 20)}` }, 'body.support_url'],
      [{ support_url: 42 }, 'body.support_url'],
      [{ web_page_url: 'data:text/html,hi' }, 'body.web_page_url'],
      [{ web_page_url: 'file:///etc/passwd' }, 'body.web_page_url'],
      [{ announce: 'x'.repeat(201) }, 'body.announce'],
      [{ announce: '😀'.repeat(201) }, 'body.announce'],
      [{ announce: 'line one\nline two' }, 'body.announce'],
      [{ announce: 'tab\there' }, 'body.announce'],
      [{ announce: 7 }, 'body.announce'],
      [{ userinfo: {} }, 'body.userinfo'],
      [{ userinfo: 'fixed' }, 'body.userinfo'],
      [{ userinfo: { mode: 'total' } }, 'body.userinfo.mode'],
      [{ userinfo: { mode: 'none', total: 5 } }, 'body.userinfo.total'],
      [{ userinfo: { mode: 'first', upload: 1 } }, 'body.userinfo.upload'],
      [{ userinfo: { mode: 'sum', expire: 1_900_000_000 } }, 'body.userinfo.expire'],
      [{ userinfo: { mode: 'sum', download: 0 } }, 'body.userinfo.download'],
      [{ userinfo: { mode: 'fixed', upload: -1 } }, 'body.userinfo.upload'],
      [{ userinfo: { mode: 'fixed', total: 1.5 } }, 'body.userinfo.total'],
      [{ userinfo: { mode: 'fixed', download: '5' } }, 'body.userinfo.download'],
      [{ userinfo: { mode: 'fixed', total: 2 ** 53 } }, 'body.userinfo.total'],
      [{ userinfo: { mode: 'fixed', expire: 253_402_300_800 } }, 'body.userinfo.expire'],
      [{ userinfo: { mode: 'fixed', quota: 5 } }, 'body.userinfo'],
    ];
    for (const [body, path] of cases) {
      const created = await t.call('POST', SUBS, { token, body: { name: unique('bad'), ...body } });
      expect(
        issuePaths(created).some((p) => p.startsWith(path)),
        `create ${JSON.stringify(body)}`,
      ).toBe(true);
      expect(
        issuePaths(await patch(token, sub.token, body)).some((p) => p.startsWith(path)),
        `patch ${JSON.stringify(body)}`,
      ).toBe(true);
    }
    // The mode rule reports every misplaced number at once.
    expect(issuePaths(await patch(token, sub.token, { userinfo: { mode: 'sum', upload: 1, expire: 2 } }))).toEqual([
      'body.userinfo.upload',
      'body.userinfo.expire',
    ]);
    expect(settingsOf(await get(token, sub.token))).toEqual({
      ...DEFAULTS,
      announce: 'kept',
      update_interval_hours: 5,
    });
    const names = expectStatus(await t.call('GET', SUBS, { token }), 200).json<Subscription[]>();
    expect(names).toHaveLength(1);
  });

  it('accepts the edges: interval 1 and 168, a 2048-character URL, 200 code points of announce, upper-case schemes', async () => {
    const { token } = await t.newUser();
    const longUrl = `https://example.com/${'a'.repeat(2048 - 20)}`;
    expect(longUrl).toHaveLength(2048);
    const sub = await create(token, { update_interval_hours: 168, support_url: longUrl, announce: '😀'.repeat(200) });
    expect(sub).toMatchObject({ update_interval_hours: 168, support_url: longUrl, announce: '😀'.repeat(200) });
    const updated = expectStatus(
      await patch(token, sub.token, { update_interval_hours: 1, web_page_url: 'HTTPS://Example.COM/Path' }),
      200,
    ).json<Subscription>();
    expect(updated).toMatchObject({ update_interval_hours: 1, web_page_url: 'HTTPS://Example.COM/Path' });
    const res = await link(sub.token);
    expect(res.headers['support-url']).toBe(longUrl);
    expect(res.headers['profile-web-page-url']).toBe('HTTPS://Example.COM/Path');
  });

  it('announce: printable ASCII goes out as it is, anything else as base64: of its UTF-8', async () => {
    const { token } = await t.newUser();
    const sub = await create(token, { announce: 'Plain ASCII: 100% ok; "quoted" <b>' });
    expect((await link(sub.token)).headers['announce']).toBe('Plain ASCII: 100% ok; "quoted" <b>');
    for (const announce of ['Привет, продление до 1 мая', 'café', '🚀 new servers', '中文公告']) {
      expectStatus(await patch(token, sub.token, { announce }), 200);
      const header = (await link(sub.token)).headers['announce'] as string;
      expect(header.startsWith('base64:'), announce).toBe(true);
      expect(Buffer.from(header.slice('base64:'.length), 'base64').toString('utf8')).toBe(announce);
    }
  });

  it('URLs with characters beyond ASCII are returned as given and sent in their ASCII form', async () => {
    const { token } = await t.newUser();
    const sub = await create(token, { support_url: 'https://пример.рф/помощь', web_page_url: 'https://b.example/ä' });
    expect(sub.support_url).toBe('https://пример.рф/помощь');
    const res = await link(sub.token);
    expect(res.headers['support-url']).toBe(new URL('https://пример.рф/помощь').href);
    expect(res.headers['support-url']).toMatch(/^https:\/\/xn--/);
    expect(res.headers['profile-web-page-url']).toBe('https://b.example/%C3%A4');
  });

  it('PATCH changes only the fields sent; null restores a default; "" clears announce; the link follows at once', async () => {
    const { token } = await t.newUser();
    const sub = await create(token, {
      update_interval_hours: 12,
      support_url: 'https://help.example.com/',
      web_page_url: 'https://www.example.com/',
      announce: 'hello',
      userinfo: { mode: 'fixed', total: 1000 },
    });
    const before = await link(sub.token);
    expect(before.headers['subscription-userinfo']).toBe('upload=0; download=0; total=1000; expire=0');

    const renamed = expectStatus(await patch(token, sub.token, { name: 'Renamed only' }), 200).json<Subscription>();
    expect(settingsOf(renamed)).toEqual(settingsOf(sub));

    const one = expectStatus(await patch(token, sub.token, { announce: 'bye' }), 200).json<Subscription>();
    expect(settingsOf(one)).toEqual({ ...settingsOf(sub), announce: 'bye' });
    const after = await link(sub.token, { 'if-none-match': before.headers.etag as string });
    expect(after.statusCode).toBe(200); // same body, new headers: a new ETag
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.headers['announce']).toBe('bye');

    expectStatus(await patch(token, sub.token, { announce: '' }), 200);
    expect((await get(token, sub.token)).announce).toBeNull();

    const cleared = expectStatus(
      await patch(token, sub.token, {
        update_interval_hours: null,
        support_url: null,
        web_page_url: null,
        announce: null,
        userinfo: null,
      }),
      200,
    ).json<Subscription>();
    expect(settingsOf(cleared)).toEqual(DEFAULTS);
    const res = await link(sub.token);
    expect(res.headers['profile-update-interval']).toBe('1');
    for (const header of PROFILE_HEADERS) expect(res.headers[header], header).toBeUndefined();
  });

  it('no_update_fields names every PATCH field; a settings-only PATCH is enough', async () => {
    const { token } = await t.newUser();
    const sub = await create(token);
    const details = expectError(await patch(token, sub.token, {}), 400, 'no_update_fields').details as {
      fields: string[];
    };
    expect(details.fields.sort()).toEqual(
      [
        'announce',
        'description',
        'name',
        'support_url',
        'transforms',
        'update_interval_hours',
        'userinfo',
        'web_page_url',
      ].sort(),
    );
    expect(
      expectStatus(await patch(token, sub.token, { userinfo: { mode: 'sum' } }), 200).json<Subscription>(),
    ).toMatchObject({ userinfo: { mode: 'sum' } });
  });

  it('fixed: returns the numbers given, serves missing ones as 0; other modes return only the mode', async () => {
    const { token } = await t.newUser();
    const sub = await create(token, { userinfo: { mode: 'fixed', download: 5_000_000, expire: 1_800_000_000 } });
    expect(sub.userinfo).toEqual({ mode: 'fixed', download: 5_000_000, expire: 1_800_000_000 });
    expect((await link(sub.token)).headers['subscription-userinfo']).toBe(
      'upload=0; download=5000000; total=0; expire=1800000000',
    );
    const zero = expectStatus(await patch(token, sub.token, { userinfo: { mode: 'fixed' } }), 200).json<Subscription>();
    expect(zero.userinfo).toEqual({ mode: 'fixed' });
    expect((await link(sub.token)).headers['subscription-userinfo']).toBe('upload=0; download=0; total=0; expire=0');
    for (const mode of ['first', 'sum', 'none']) {
      const changed = expectStatus(await patch(token, sub.token, { userinfo: { mode } }), 200).json<Subscription>();
      expect(changed.userinfo).toEqual({ mode });
      // No external source carried usage: first and sum send nothing, like none.
      expect((await link(sub.token)).headers['subscription-userinfo'], mode).toBeUndefined();
    }
  });

  it('the page shows announce, support and web page links, traffic and expiry from the settings', async () => {
    const { token } = await t.newUser();
    const sub = await create(token, {
      announce: 'Renew <soon> & save',
      support_url: 'https://t.me/help_bot',
      web_page_url: 'https://panel.example.com/',
      userinfo: {
        mode: 'fixed',
        upload: 1024 ** 3,
        download: 3 * 1024 ** 3,
        total: 10 * 1024 ** 3,
        expire: 1_900_000_000,
      },
    });
    const page = await link(sub.token, BROWSER);
    expect(page.headers['subweave-format']).toBe('page');
    expect(page.body).toContain('<p id="announce" class="announce" role="note">Renew &lt;soon&gt; &amp; save</p>');
    expect(page.body).toContain('<a id="support" href="https://t.me/help_bot"');
    expect(page.body).toContain('<a id="website" href="https://panel.example.com/"');
    expect(page.body).toContain('\u20684.0 GiB\u2069 of \u206810.0 GiB\u2069');
    expect(page.body).toContain(`datetime="${new Date(1_900_000_000 * 1000).toISOString()}"`);
    expect(page.headers['announce']).toBe('Renew <soon> & save');
    expect(page.headers['subscription-userinfo']).toBe(
      `upload=${1024 ** 3}; download=${3 * 1024 ** 3}; total=${10 * 1024 ** 3}; expire=1900000000`,
    );

    expectStatus(await patch(token, sub.token, { announce: null, support_url: null, userinfo: null }), 200);
    const plain = await link(sub.token, BROWSER);
    expect(plain.body).not.toContain('id="announce"');
    expect(plain.body).not.toContain('id="support"');
    expect(plain.body).toContain('id="website"');
    expect(plain.body).not.toContain('id="fact-traffic"');
  });

  it('the preview lists the profile headers the link would send', async () => {
    const { token } = await t.newUser();
    const sub = await create(token, {
      update_interval_hours: 6,
      announce: 'über',
      userinfo: { mode: 'fixed', total: 1 },
    });
    const preview = expectStatus(
      await t.call('GET', `${SUBS}/${sub.token}/preview?format=plain`, { token }),
      200,
    ).json<{
      headers: Record<string, string>;
    }>();
    expect(preview.headers).toMatchObject({
      'profile-update-interval': '6',
      announce: `base64:${Buffer.from('über').toString('base64')}`,
      'subscription-userinfo': 'upload=0; download=0; total=1; expire=0',
    });
    expect(preview.headers['etag']).toBe((await t.call('GET', `/sub/${sub.token}/plain`)).headers.etag);
  });

  it('the provider mount sets and returns the settings; the user reads them but may not change them while approved', async () => {
    const { user, provider, subs } = await approvedPair(t);
    const sub = await create(provider.token, { update_interval_hours: 3, announce: 'from the provider' }, subs);
    expect(sub).toMatchObject({ update_interval_hours: 3, announce: 'from the provider', userinfo: { mode: 'none' } });
    const changed = expectStatus(
      await patch(
        provider.token,
        sub.token,
        { userinfo: { mode: 'fixed', total: 50 }, web_page_url: 'https://p.example/' },
        subs,
      ),
      200,
    ).json<Subscription>();
    expect(settingsOf(changed)).toEqual({
      update_interval_hours: 3,
      support_url: null,
      web_page_url: 'https://p.example/',
      announce: 'from the provider',
      userinfo: { mode: 'fixed', total: 50 },
    });
    expect(settingsOf(await get(provider.token, sub.token, subs))).toEqual(settingsOf(changed));
    expect(settingsOf((await listed(provider.token, sub.token, subs)) as Subscription)).toEqual(settingsOf(changed));
    expect(settingsOf((await listed(user.token, sub.token)) as Subscription)).toEqual(settingsOf(changed));
    expectError(await patch(user.token, sub.token, { announce: 'mine' }), 403, 'managed_by_provider');
    expect(issuePaths(await patch(provider.token, sub.token, { support_url: 'gopher://x' }, subs))).toEqual([
      'body.support_url',
    ]);
    expect((await link(sub.token)).headers['subscription-userinfo']).toBe('upload=0; download=0; total=50; expire=0');
  });

  it('another account cannot change the settings (403 forbidden)', async () => {
    const owner = await t.newUser();
    const stranger = await t.newUser();
    const sub = await create(owner.token, { announce: 'mine' });
    expectError(await patch(stranger.token, sub.token, { announce: 'yours' }), 403, 'forbidden');
    expect((await get(owner.token, sub.token)).announce).toBe('mine');
  });
});

/** An upstream answer of `lines` (base64), with a subscription-userinfo header when `usage` is given. */
const feed =
  (lines: string[], usage?: string, status = 200): Handler =>
  (_req, res) => {
    const headers = {
      'content-type': 'text/plain',
      ...(usage === undefined ? {} : { 'subscription-userinfo': usage }),
    };
    res.writeHead(status, headers).end(base64(lines.join('\n')));
  };

describeEachDatabase('link usage from upstreams', (kind) => {
  const t = useTestApp(kind);
  const upstream = useUpstream();

  async function create(userToken: string, sources: unknown[], mode: string): Promise<Subscription> {
    const res = await t.call('POST', SUBS, {
      token: userToken,
      body: { name: unique('u'), sources, userinfo: { mode } },
    });
    return expectStatus(res, 201).json<Subscription>();
  }
  const usageHeader = async (token: string) =>
    (await t.call('GET', `/sub/${token}`)).headers['subscription-userinfo'] as string | undefined;
  const setMode = async (userToken: string, token: string, mode: string) =>
    expectStatus(await t.call('PATCH', `${SUBS}/${token}`, { token: userToken, body: { userinfo: { mode } } }), 200);
  const refresh = async (userToken: string, token: string) =>
    expectStatus(await t.call('POST', `${SUBS}/${token}/refresh`, { token: userToken }), 200).json<{
      refreshed: number;
      failed: number;
    }>();

  it('first: the first external source in order that carried one, read tolerantly (decimals truncated)', async () => {
    const { token } = await t.newUser();
    const none = upstream.current.add(feed(upstreamLines(2)));
    const hiddify = upstream.current.add(
      feed(upstreamLines(2), 'upload=0;download=1024;total=10240.5;expire=1704054600.55'),
    );
    const later = upstream.current.add(feed(upstreamLines(2), 'upload=5; download=5; total=5; expire=5'));
    const sub = await create(token, [vlessUri(), none, hiddify, later], 'first');
    expect(await usageHeader(sub.token)).toBe('upload=0; download=1024; total=10240; expire=1704054600');
    // The fetcher kept the parsed numbers with the content, and nothing for the upstream that sent none.
    const rows = await t.database.db
      .selectFrom('external_cache')
      .select(['url', 'userinfo_upload', 'userinfo_download', 'userinfo_total', 'userinfo_expire'])
      .where('url', 'in', [none, hiddify])
      .execute();
    expect(rows.find((row) => row.url === hiddify)).toMatchObject({
      userinfo_upload: 0,
      userinfo_download: 1024,
      userinfo_total: 10240,
      userinfo_expire: 1704054600,
    });
    expect(rows.find((row) => row.url === none)).toMatchObject({ userinfo_upload: null, userinfo_total: null });
  });

  it('sum: upload, download and total added, the earliest non-zero expire; one total=0 makes the total 0', async () => {
    const { token } = await t.newUser();
    const a = upstream.current.add(feed(upstreamLines(1), 'upload=100; download=200; total=1000; expire=1900000000'));
    const b = upstream.current.add(
      feed(upstreamLines(1), ' Upload = 10 ;download=20; total=500.9; expire=1800000000; junk;'),
    );
    const c = upstream.current.add(feed(upstreamLines(1), 'upload=1; download=2; total=300; expire=0'));
    const silent = upstream.current.add(feed(upstreamLines(1)));
    const sub = await create(token, [a, silent, b, c], 'sum');
    expect(await usageHeader(sub.token)).toBe('upload=111; download=222; total=1800; expire=1800000000');

    const unlimited = upstream.current.add(feed(upstreamLines(1), 'upload=1000; download=0; total=0; expire=0'));
    expectStatus(await t.call('POST', `${SUBS}/${sub.token}/sources`, { token, body: { sources: [unlimited] } }), 200);
    expect(await usageHeader(sub.token)).toBe('upload=1111; download=222; total=0; expire=1800000000');

    await setMode(token, sub.token, 'first');
    expect(await usageHeader(sub.token)).toBe('upload=100; download=200; total=1000; expire=1900000000');
    await setMode(token, sub.token, 'none');
    expect(await usageHeader(sub.token)).toBeUndefined();
  });

  it('first and sum send nothing when no external source carried a header', async () => {
    const { token } = await t.newUser();
    const silent = upstream.current.add(feed(upstreamLines(2)));
    const garbled = upstream.current.add(feed(upstreamLines(2), 'quota=5; nonsense'));
    for (const mode of ['first', 'sum']) {
      const sub = await create(token, [silent, garbled], mode);
      expect(await usageHeader(sub.token), mode).toBeUndefined();
      expect((await t.call('GET', `/sub/${sub.token}`, { headers: BROWSER })).body).not.toContain('id="fact-traffic"');
    }
  });

  it('counts the external sources the link serves: through references, not hidden ones at depth 0', async () => {
    const owner = await t.newUser();
    const hidden = upstream.current.add(feed(upstreamLines(1), 'upload=1; download=1; total=1; expire=1'));
    const shallow = upstream.current.add(feed(upstreamLines(1), 'upload=7; download=7; total=7; expire=7'));
    const deep = upstream.current.add(feed(upstreamLines(1), 'upload=2; download=3; total=40; expire=1900000000'));
    const library = await create(owner.token, [{ data: shallow, max_depth: 0 }, deep], 'none');
    const holder = await create(
      owner.token,
      [{ data: hidden, is_hidden: true }, vlessUri(), internalRef(library.token)],
      'first',
    );
    // hidden: not served at depth 0; shallow: max_depth 0, so not served through the reference; deep: served.
    expect(await usageHeader(holder.token)).toBe('upload=2; download=3; total=40; expire=1900000000');
    await setMode(owner.token, holder.token, 'sum');
    expect(await usageHeader(holder.token)).toBe('upload=2; download=3; total=40; expire=1900000000');
    // The library's own link serves both of its sources.
    await setMode(owner.token, library.token, 'sum');
    expect(await usageHeader(library.token)).toBe('upload=9; download=10; total=47; expire=7');
    // A URL reached twice counts once.
    const twice = await create(owner.token, [deep, internalRef(library.token)], 'sum');
    expect(await usageHeader(twice.token)).toBe('upload=2; download=3; total=40; expire=1900000000');
    const page = await t.call('GET', `/sub/${holder.token}`, { headers: BROWSER });
    expect(page.body).toContain('id="fact-traffic"');
    expect(page.body).toContain('of \u206840 B\u2069');
  });

  it('follows the upstream: new numbers on a refresh reach the link (new ETag, same body); a failure keeps them; a good fetch without the header drops them', async () => {
    const { token } = await t.newUser();
    const lines = upstreamLines(3);
    const url = upstream.current.add(feed(lines, 'upload=1; download=2; total=3; expire=4'));
    const sub = await create(token, [url], 'first');
    const before = await t.call('GET', `/sub/${sub.token}`);
    expect(before.headers['subscription-userinfo']).toBe('upload=1; download=2; total=3; expire=4');

    upstream.current.set(url, feed(lines, 'upload=10; download=20; total=3; expire=4'));
    expect(await refresh(token, sub.token)).toMatchObject({ refreshed: 1, failed: 0 });
    const after = await t.call('GET', `/sub/${sub.token}`, {
      headers: { 'if-none-match': before.headers.etag as string },
    });
    expect(after.statusCode).toBe(200);
    expect(after.body).toBe(before.body);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.headers['subscription-userinfo']).toBe('upload=10; download=20; total=3; expire=4');

    upstream.current.set(url, feed(lines, 'upload=99; download=99; total=99; expire=99', 500));
    expect(await refresh(token, sub.token)).toMatchObject({ refreshed: 0, failed: 1 });
    expect(await usageHeader(sub.token)).toBe('upload=10; download=20; total=3; expire=4');
    upstream.current.set(url, feed([], 'upload=99; download=99; total=99; expire=99'));
    expect(await refresh(token, sub.token)).toMatchObject({ refreshed: 0, failed: 1 }); // empty: not a good fetch
    expect(await usageHeader(sub.token)).toBe('upload=10; download=20; total=3; expire=4');

    upstream.current.set(url, feed(lines));
    expect(await refresh(token, sub.token)).toMatchObject({ refreshed: 1, failed: 0 });
    expect(await usageHeader(sub.token)).toBeUndefined();
  });
});
