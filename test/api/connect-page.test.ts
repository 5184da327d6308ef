// The connect page as served over HTTP: escaping of provider data, security headers, CSP hashes and 404 handling.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { escapeHtml, linkableUrl } from '../../src/modules/connect/html.js';
import { renderConnectPage } from '../../src/modules/connect/connect-page.view.js';
import { NO_BRANDING } from '../../src/modules/branding/branding.js';
import { updateProvider } from '../../src/modules/providers/providers.store.js';
import { describeEachDatabase, TEST_BASE_URL, useTestApp } from '../support/harness.js';
import { requestAccess } from '../support/factories.js';
import { expectError } from '../support/expect.js';

const HOSTILE_URL = `https://evil.example.com/?q="><script>alert(1)</script>&x='y'`;

function expectSecurityHeaders(response: LightMyRequestResponse) {
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('no-referrer');
  expect(response.headers['x-frame-options']).toBe('DENY');
  const csp = String(response.headers['content-security-policy']);
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("connect-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('unsafe-eval');
  return csp;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('connect page escaping', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`<a href="x">Tom & 'Jerry'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;',
    );
  });

  it('links only absolute http(s) URLs', () => {
    expect(linkableUrl('https://p.example.com/a?b=c')).toBe('https://p.example.com/a?b=c');
    expect(linkableUrl('javascript:alert(1)')).toBeNull();
    expect(linkableUrl('data:text/html,<b>x</b>')).toBeNull();
    expect(linkableUrl('/relative')).toBeNull();
    expect(linkableUrl('')).toBeNull();
    expect(linkableUrl(null)).toBeNull();
  });

  it('renders a hostile name, URL and user id as text only', () => {
    const html = renderConnectPage(
      { providerName: `x"><img src=x>'`, providerUrl: HOSTILE_URL, userId: `"><b>` },
      { lang: 'en', branding: NO_BRANDING },
    );
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('alert(1)</script>');
    expect(html).toContain('data-provider="x&quot;&gt;&lt;img src=x&gt;&#39;"');
    expect(html).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;x=&#39;y&#39;');
    expect(html.match(/<script>/g)).toHaveLength(1);
  });
});

describeEachDatabase('connect page', (kind) => {
  const t = useTestApp(kind);

  it('serves the page for a known provider with escaped URL and strict headers', async () => {
    const provider = await t.newProvider({ url: HOSTILE_URL });
    const response = await t.call('GET', `/connect/${provider.name}`);
    expect(response.statusCode, response.body).toBe(200);
    const csp = expectSecurityHeaders(response);
    const html = response.body;
    expect(html).toContain(`data-provider="${provider.name}"`);
    expect(html).toContain(`<title>Connect ${provider.name}? · subweave</title>`);
    expect(html).toContain(`href="${escapeHtml(HOSTILE_URL)}"`);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toMatch(/<input id="token" type="password"/);
    // No inline event handlers and exactly one inline script and style, each allowed by its hash.
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)];
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)];
    expect(scripts).toHaveLength(1);
    expect(styles).toHaveLength(1);
    expect(csp).toContain(`script-src ${sha256(scripts[0]?.[1] ?? '')}`);
    expect(csp).toContain(`style-src ${sha256(styles[0]?.[1] ?? '')}`);
    expect(html).not.toContain('innerHTML');
  });

  it('speaks the language of ?lang=, then the cookie, then Accept-Language, and explains tokens and sign-in links', async () => {
    const provider = await t.newProvider();
    const page = async (query: string, headers: Record<string, string> = {}) => {
      const response = await t.call('GET', `/connect/${provider.name}${query}`, { headers });
      expect(response.statusCode, response.body).toBe(200);
      return response.body;
    };
    const english = await page('');
    expect(english).toContain('<html lang="en" dir="ltr">');
    expect(english).toContain('Where do I get my token?');
    expect(english).toContain('The bot or provider you signed up with gives it to you');
    expect(english).toContain('/app/sign-in#code=');
    const persian = await page('', { 'accept-language': 'fa-IR,fa;q=0.9,en;q=0.5' });
    expect(persian).toContain('<html lang="fa" dir="rtl">');
    expect(persian).toContain('توکن را از کجا بگیرم؟');
    expect(persian).toContain('"connect.error.missing_token":"اول توکن API خود را بچسبانید."');
    const cookie = await page('', { 'accept-language': 'fa', cookie: 'subweave_lang=ru' });
    expect(cookie).toContain('<html lang="ru" dir="ltr">');
    expect(cookie).toContain(`<h1>Подключить <span class="name" id="provider-name">${provider.name}</span>?</h1>`);
    const chosen = await page('?lang=zh&user_id=7', { cookie: 'subweave_lang=ru' });
    expect(chosen).toContain('<html lang="zh-Hans" dir="ltr">');
    expect(chosen).toContain('<a href="?user_id=7&amp;lang=fa" lang="fa" hreflang="fa">فارسی</a>');
    expect(await page('?lang=xx')).toContain('<html lang="en" dir="ltr">');
    const unknown = await t.call('GET', '/connect/nobody-here', { headers: { 'accept-language': 'zh-CN' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('<h1>未知服务商</h1>');
  });

  it('omits the website line when the provider has no URL, and never links a non-http URL', async () => {
    const bare = await t.newProvider({ url: '' });
    expect((await t.call('GET', `/connect/${bare.name}`)).body).not.toContain('Website:');
    const legacy = await t.newProvider();
    await updateProvider(t.database.db, legacy.hash, {
      provider_url: 'javascript:alert(1)',
      updated_at: new Date().toISOString(),
    });
    const html = (await t.call('GET', `/connect/${legacy.name}`)).body;
    expect(html).not.toContain('javascript:');
  });

  it('answers an HTML 404 page for an unknown provider', async () => {
    const response = await t.call('GET', '/connect/nobody-here');
    expect(response.statusCode).toBe(404);
    expectSecurityHeaders(response);
    expect(response.body).toContain('Unknown provider');
    expect(response.body).toContain('<strong>nobody-here</strong>');
    expect(response.body).not.toContain('<script>');
  });

  it.each(['abc', 'UPPER', 'a--bc', '-abcd', 'abcd-', 'a'.repeat(17), '%3Cscript%3E', 'na%20me'])(
    'answers 404 not_found for the malformed name %s',
    async (name) => {
      const response = await t.call('GET', `/connect/${name}`);
      expectError(response, 404, 'not_found');
      expect(response.body).not.toContain('<script');
    },
  );

  it('shows a plausible user_id from the link and ignores invite and other parameters', async () => {
    const provider = await t.newProvider();
    const good = await t.call('GET', `/connect/${provider.name}?user_id=42&invite=abc.123&utm=x`);
    expect(good.statusCode).toBe(200);
    expect(good.body).toContain('user ID <strong>42</strong>');
    expect(good.body).toContain('data-user-id="42"');
    expect(good.body).not.toContain('abc.123');
    const bad = await t.call('GET', `/connect/${provider.name}?user_id=${encodeURIComponent('<b>1</b>')}`);
    expect(bad.statusCode).toBe(200);
    expect(bad.body).not.toContain('<b>1');
    expect(bad.body).toContain('data-user-id=""');
  });

  it('is where the default connection_link leads', async () => {
    const user = await t.newUser();
    const provider = await t.newProvider();
    const { connection_link: link } = await requestAccess(t, provider, user.userId);
    expect(link?.startsWith(`${TEST_BASE_URL}/connect/`)).toBe(true);
    const response = await t.call('GET', (link ?? '').slice(TEST_BASE_URL.length));
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`data-provider="${provider.name}"`);
  });
});

describeEachDatabase('connect page with a custom link template', (kind) => {
  const t = useTestApp(kind, {
    CONNECTION_LINK_TEMPLATE: '{base_url}/connect/{provider_name}?user_id={user_id}&invite={invite}',
  });

  it('opens the link with user_id and invite and shows the user id', async () => {
    const user = await t.newUser();
    const provider = await t.newProvider();
    const { connection_link: link } = await requestAccess(t, provider, user.userId);
    const url = new URL(link ?? '');
    expect(url.searchParams.get('invite')).toBeTruthy();
    const response = await t.call('GET', `${url.pathname}${url.search}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toContain(`user ID <strong>${user.userId}</strong>`);
    expect(response.body).not.toContain(url.searchParams.get('invite') ?? '');
  });
});
