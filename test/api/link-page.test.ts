// The link page over HTTP (docs/api.md, The page): the page for browsers, its headers and content, drawn per visitor (language, platform) with the branding, and the HTML 404 for unknown tokens.
import { brotliDecompressSync } from 'node:zlib';
import { expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { LINK_PAGE_CSP } from '../../src/modules/resolve/link-page.js';
import { describeEachDatabase, TEST_BASE_URL, useTestApp } from '../support/harness.js';
import { ssUri, subsApi, trojanUri, vlessUri } from '../support/factories.js';
import { expectError } from '../support/expect.js';

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const PHONE =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/** The opening tag of the page's document: its language and direction. */
const htmlTag = (body: string) => /^<!doctype html>\n<html [^>]*>/.exec(body)?.[0];

function expectPageHeaders(res: LightMyRequestResponse) {
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['content-security-policy']).toBe(LINK_PAGE_CSP);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['content-disposition']).toBeUndefined();
}

describeEachDatabase('link page', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'link-page-secret-of-at-least-32-characters' });
  const subs = subsApi(t);
  const get = (url: string, headers: Record<string, string> = {}) => t.call('GET', url, { headers });

  it('answers a browser with the page: name, description, count, last change, QR, copy and app links', async () => {
    const owner = await t.newUser();
    const created = await t.call('POST', '/api/v1/subs', {
      token: owner.token,
      body: { name: 'Family <b>&', description: `"quoted" 'and' 😀`, sources: [vlessUri(), trojanUri(), ssUri()] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const sub = created.json<{ token: string; updated_at: string }>();
    const link = `${TEST_BASE_URL}/sub/${sub.token}`;
    for (const path of [`/sub/${sub.token}`, `/api/v1/sub/${sub.token}`]) {
      const res = await get(path, BROWSER);
      expect(res.statusCode, res.body).toBe(200);
      expectPageHeaders(res);
      expect(res.headers['subweave-format']).toBe('page');
      expect(res.body).toContain('<h1 id="name">Family &lt;b&gt;&amp;</h1>');
      expect(res.body).toContain('&quot;quoted&quot; &#39;and&#39; 😀');
      expect(res.body).toContain('<dt>Servers</dt><dd>3</dd>');
      expect(res.body).toContain(`datetime="${new Date(sub.updated_at).toISOString()}"`);
      expect(res.body).toContain(`<input id="link" type="text" readonly dir="ltr" value="${link}"`);
      expect(res.body).toMatch(/<figure class="qr" id="qr" aria-label="QR code"><svg [^>]*viewBox/);
      expect(res.body).toContain(`happ://add/${link}"`);
      expect(res.body).toContain(
        `clash://install-config?name=Family%20%3Cb%3E%26&amp;url=${encodeURIComponent(`${link}/mihomo`)}"`,
      );
      expect(res.body).toContain(`sing-box://import-remote-profile?url=${encodeURIComponent(`${link}/sing-box`)}#`);
    }
  });

  it('keeps one ETag for the page, answers 304 and shows a rename at once', async () => {
    const sub = await subs.create([vlessUri()]);
    const first = await get(`/sub/${sub.token}`, BROWSER);
    const again = await get(`/sub/${sub.token}`, { ...BROWSER, 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.headers['subweave-format']).toBe('page');
    const renamed = await t.call('PATCH', `/api/v1/subs/${sub.token}`, {
      token: sub.userToken,
      body: { name: 'Renamed' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const after = await get(`/sub/${sub.token}`, { ...BROWSER, 'if-none-match': first.headers.etag as string });
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('<h1 id="name">Renamed</h1>');
    expect(after.headers.etag).not.toBe(first.headers.etag);
  });

  it('answers an unknown or malformed token asked for as HTML with the HTML 404 page', async () => {
    for (const url of [`/sub/${'A'.repeat(43)}`, '/api/v1/sub/%24%24%24', `/sub/${'x'.repeat(300)}`]) {
      const res = await get(url, BROWSER);
      expect(res.statusCode, url).toBe(404);
      expectPageHeaders(res);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body.startsWith('<!doctype html>\n<html lang="en" dir="ltr">')).toBe(true);
      expect(res.body).toContain('<h1>Subscription not found</h1>');
      expect(res.body).not.toContain('AAAA');
    }
  });

  it('keeps the JSON 404 for everything that would not get the page', async () => {
    const unknown = 'A'.repeat(43);
    for (const [url, headers] of [
      [`/sub/${unknown}`, {}],
      [`/sub/${unknown}`, { accept: 'application/json' }],
      [`/sub/${unknown}`, { accept: '*/*', 'user-agent': 'Mozilla/5.0' }],
      [`/sub/${unknown}/mihomo`, BROWSER],
      [`/sub/${unknown}?format=plain`, BROWSER],
    ] as const) {
      const res = await get(url, headers);
      expectError(res, 404, 'subscription_not_found');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  /** A subscription with fixed userinfo and, optionally, its own support link; answers its page. */
  async function pageWithUsage(userinfo: Record<string, unknown>, supportUrl?: string) {
    const owner = await t.newUser();
    const created = await t.call('POST', '/api/v1/subs', {
      token: owner.token,
      body: {
        name: 'Usage',
        sources: [vlessUri()],
        userinfo: { mode: 'fixed', ...userinfo },
        ...(supportUrl ? { support_url: supportUrl } : {}),
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { token } = created.json<{ token: string }>();
    const res = await get(`/sub/${token}`, BROWSER);
    expect(res.statusCode, res.body).toBe(200);
    return { res, token, owner };
  }

  const bannerOf = (body: string) =>
    /<div class="banner" id="banner" role="alert"[^>]*>[\s\S]*?<\/div>/.exec(body)?.[0];

  it('shows an expired subscription with a prominent banner and its support link', async () => {
    const past = Math.floor(Date.now() / 1000) - 86_400;
    const { res } = await pageWithUsage({ expire: past }, 'https://help.example.com/renew');
    const banner = bannerOf(res.body);
    expect(banner).toContain('data-state="expired"');
    expect(banner).not.toContain('hidden');
    expect(banner).toContain('This subscription has expired');
    expect(banner).toContain('<a class="banner-link" href="https://help.example.com/renew"');
  });

  it('shows a used-up traffic quota with a banner', async () => {
    const { res } = await pageWithUsage({ upload: 600, download: 500, total: 1000 });
    const banner = bannerOf(res.body);
    expect(banner).toContain('data-state="quota"');
    expect(banner).toContain('The traffic limit is reached');
    expect(banner).not.toContain('hidden');
    // No support link anywhere: the banner carries none.
    expect(banner).not.toContain('<a ');
  });

  it('carries the banner hidden, with its moment, while the expiry is ahead; none without limits', async () => {
    const future = Math.floor(Date.now() / 1000) + 10 * 86_400;
    const { res } = await pageWithUsage({ expire: future, total: 5000, upload: 1, download: 1 });
    expect(bannerOf(res.body)).toContain(`hidden data-expires-at="${future}"`);
    const plain = await pageWithUsage({});
    expect(bannerOf(plain.res.body)).toBeUndefined();
  });

  it('answers the language links of the page (?lang=) with the page', async () => {
    const sub = await subs.create([vlessUri()]);
    for (const lang of ['en', 'ru', 'zh', 'fa', 'xx']) {
      const res = await get(`/sub/${sub.token}?lang=${lang}`, BROWSER);
      expect(res.statusCode, lang).toBe(200);
      expect(res.headers['subweave-format'], lang).toBe('page');
    }
  });

  it("speaks the visitor's language: Accept-Language, then the cookie, then ?lang=", async () => {
    const sub = await subs.create([vlessUri()]);
    const persian = await get(`/sub/${sub.token}`, { ...BROWSER, 'accept-language': 'fa-IR,fa;q=0.9,en;q=0.5' });
    expect(persian.statusCode).toBe(200);
    expectPageHeaders(persian);
    expect(htmlTag(persian.body)).toBe('<!doctype html>\n<html lang="fa" dir="rtl">');
    expect(persian.body).toContain('لینک اشتراک');
    expect(persian.headers.vary).toBe('accept, user-agent, accept-encoding, accept-language, cookie');

    const cookie = await get(`/sub/${sub.token}`, {
      ...BROWSER,
      'accept-language': 'fa',
      cookie: 'theme=dark; subweave_lang=zh',
    });
    expect(htmlTag(cookie.body)).toBe('<!doctype html>\n<html lang="zh-Hans" dir="ltr">');
    expect(cookie.body).toContain('订阅链接');

    const query = await get(`/sub/${sub.token}?lang=ru`, {
      ...BROWSER,
      'accept-language': 'fa',
      cookie: 'subweave_lang=zh',
    });
    expect(htmlTag(query.body)).toBe('<!doctype html>\n<html lang="ru" dir="ltr">');
    expect(query.body).toContain('Ссылка на подписку');

    // An unknown ?lang= or cookie value is ignored; no language of ours is English.
    const unknown = await get(`/sub/${sub.token}?lang=xx`, {
      ...BROWSER,
      cookie: 'subweave_lang=de',
      'accept-language': 'de',
    });
    expect(htmlTag(unknown.body)).toBe('<!doctype html>\n<html lang="en" dir="ltr">');
    expect(unknown.body).toContain('Subscription link');
  });

  it('refuses a ?lang= longer than 16 characters', async () => {
    const sub = await subs.create([vlessUri()]);
    const { details } = expectError(
      await get(`/sub/${sub.token}?lang=${'x'.repeat(17)}`, BROWSER),
      400,
      'validation_failed',
    );
    expect(JSON.stringify(details)).toContain('lang');
  });

  it('puts the app buttons first on a phone and the link first on a desktop', async () => {
    const sub = await subs.create([vlessUri()]);
    const phone = await get(`/sub/${sub.token}`, { ...BROWSER, 'user-agent': PHONE });
    expect(phone.body).toContain('<main id="page" data-platform="android">');
    expect(phone.body.indexOf('id="apps-card"')).toBeLessThan(phone.body.indexOf('id="link-card"'));
    expect(phone.body).toMatch(/<details data-platform="android" open>/);
    const desktop = await get(`/sub/${sub.token}`, { ...BROWSER, 'user-agent': DESKTOP });
    expect(desktop.body).toContain('<main id="page" data-platform="windows">');
    expect(desktop.body.indexOf('id="link-card"')).toBeLessThan(desktop.body.indexOf('id="apps-card"'));
    expect(phone.headers.etag).not.toBe(desktop.headers.etag);
  });

  it('gives each language its own ETag and 304, compressed forms included', async () => {
    const sub = await subs.create([vlessUri()]);
    const url = `/sub/${sub.token}`;
    const inLang = (lang: string, extra: Record<string, string> = {}) =>
      get(url, { ...BROWSER, 'accept-language': lang, ...extra });
    const etags = new Map<string, string>();
    for (const lang of ['en', 'ru', 'zh', 'fa']) {
      const first = await inLang(lang);
      expect(first.statusCode).toBe(200);
      etags.set(lang, first.headers.etag as string);
      const again = await inLang(lang, { 'if-none-match': first.headers.etag as string });
      expect(again.statusCode, lang).toBe(304);
      expect(again.body).toBe('');
      // The same page is drawn once and kept: the ETag does not move between requests.
      expect((await inLang(lang)).headers.etag).toBe(first.headers.etag);
    }
    expect(new Set(etags.values()).size).toBe(4);
    // Another language's ETag does not confirm this one's bytes.
    const crossed = await inLang('ru', { 'if-none-match': etags.get('en')! });
    expect(crossed.statusCode).toBe(200);
    expect(crossed.body).toContain('Ссылка на подписку');

    for (const lang of ['fa', 'ru']) {
      const identity = await inLang(lang);
      const br = await inLang(lang, { 'accept-encoding': 'br' });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.etag).toBe((identity.headers.etag as string).replace(/"$/, '-br"'));
      expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(identity.body);
      const held = await inLang(lang, { 'accept-encoding': 'br', 'if-none-match': br.headers.etag as string });
      expect(held.statusCode).toBe(304);
      expect(held.headers['content-encoding']).toBe('br');
    }
  });

  it('shows a branding change at once, with a new ETag', async () => {
    const sub = await subs.create([vlessUri()]);
    const url = `/sub/${sub.token}`;
    const before = await get(url, { ...BROWSER, 'accept-language': 'ru' });
    expect(before.body).not.toContain('Северный ВПН');
    try {
      const set = await t.admin('PUT', '/branding', {
        service_name: 'Северный ВПН',
        accent_color: '#0A7D5A',
        support_url: 'https://help.example.com/ask',
      });
      expect(set.statusCode, set.body).toBe(200);
      const after = await get(url, {
        ...BROWSER,
        'accept-language': 'ru',
        'if-none-match': before.headers.etag as string,
      });
      expect(after.statusCode).toBe(200);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(htmlTag(after.body)).toBe(
        '<!doctype html>\n<html lang="ru" dir="ltr" data-accent="#0A7D5A" data-accent-text="#ffffff">',
      );
      expect(after.body).toMatch(/<title>[^<]* · Северный ВПН<\/title>/);
      expect(after.body).toContain('href="https://help.example.com/ask"');
      const notFound = await get(`/sub/${'A'.repeat(43)}`, BROWSER);
      expect(notFound.body).toContain('Северный ВПН');
    } finally {
      const reset = await t.admin('PUT', '/branding', {
        service_name: null,
        logo: null,
        accent_color: null,
        support_url: null,
      });
      expect(reset.statusCode, reset.body).toBe(200);
    }
    const back = await get(url, { ...BROWSER, 'accept-language': 'ru' });
    expect(back.body).not.toContain('Северный ВПН');
    expect(back.headers.etag).toBe(before.headers.etag);
  });

  it('counts each drawn page against the render cache budget and releases them on a branding change', async () => {
    const sub = await subs.create([vlessUri()]);
    const url = `/sub/${sub.token}`;
    const bytes = () => t.context.renderCache.byteSize;
    expect((await get(url)).statusCode).toBe(200);
    const base = bytes();
    const english = await get(url, { ...BROWSER, 'accept-language': 'en' });
    expect(bytes() - base).toBe(english.rawPayload.length);
    const russian = await get(url, { ...BROWSER, 'accept-language': 'ru' });
    expect(bytes() - base).toBe(english.rawPayload.length + russian.rawPayload.length);
    await get(url, { ...BROWSER, 'accept-language': 'ru' });
    expect(bytes() - base).toBe(english.rawPayload.length + russian.rawPayload.length);
    try {
      expect((await t.admin('PUT', '/branding', { service_name: 'Budget' })).statusCode).toBe(200);
      const branded = await get(url, { ...BROWSER, 'accept-language': 'en' });
      expect(branded.body).toContain('Budget');
      expect(bytes() - base).toBe(branded.rawPayload.length);
    } finally {
      expect((await t.admin('PUT', '/branding', { service_name: null })).statusCode).toBe(200);
    }
  });

  it("answers the HTML 404 page in the visitor's language", async () => {
    const unknown = `/sub/${'A'.repeat(43)}`;
    const persian = await get(unknown, { ...BROWSER, 'accept-language': 'fa' });
    expect(persian.statusCode).toBe(404);
    expectPageHeaders(persian);
    expect(persian.headers.vary).toBe('accept, user-agent, accept-language, cookie');
    expect(htmlTag(persian.body)).toBe('<!doctype html>\n<html lang="fa" dir="rtl">');
    expect(persian.body).toContain('<h1>اشتراک پیدا نشد</h1>');
    const russian = await get(`${unknown}?lang=ru`, BROWSER);
    expect(russian.statusCode).toBe(404);
    expect(russian.body).toContain('<h1>Подписка не найдена</h1>');
    const chinese = await get(unknown, { ...BROWSER, cookie: 'subweave_lang=zh' });
    expect(chinese.body).toContain('<h1>未找到订阅</h1>');
  });

  it('keeps the HTML 404 page for a disabled owner', async () => {
    const { token, owner } = await pageWithUsage({ expire: 1 });
    const disabled = await t.admin('PATCH', `/users/${owner.userId}`, { is_active: false });
    expect(disabled.statusCode, disabled.body).toBe(200);
    const res = await get(`/sub/${token}`, BROWSER);
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<h1>Subscription not found</h1>');
    expect(res.body).not.toContain('id="banner"');
  });

  it('documents both 404 bodies in the OpenAPI description', async () => {
    const spec = (await get('/docs/json')).json<{
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, unknown> }> } }>;
    }>();
    const notFound = spec.paths['/sub/{token}']!.get.responses['404']!;
    expect(Object.keys(notFound.content).sort()).toEqual(['application/json', 'text/html']);
  });
});
