// Per-subscription link settings (DESIGN 15): validation, defaults, get/list, both mounts, and the headers and page of the link.
import { expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import { approvedPair, expectError, expectStatus } from '../support/connections.js';
import { trojanUri, unique, vlessUri } from '../support/source-factories.js';

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
      ['announce', 'description', 'name', 'support_url', 'update_interval_hours', 'userinfo', 'web_page_url'].sort(),
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
    expect(page.body).toContain('4.0 GiB of 10.0 GiB');
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
