// The link page in headless Chromium against the real app on a loopback port: CSP, requests, deep links, copy, dark mode, 360 px, languages and branding.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { CLIENT_APPS, PLATFORMS } from '../../src/modules/resolve/link-page.apps.js';
import { findChromium, launchChromium } from '../support/chromium.js';
import { useTestApp } from '../support/harness.js';
import { ssUri, trojanUri, vlessUri } from '../support/factories.js';
import { seriousAxeViolations } from '../support/axe.js';
import type { Branding } from '../../src/modules/branding/branding.js';

const executablePath = findChromium();
const SKIP_REASON =
  'link page browser tests skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)';
if (!executablePath) console.warn(SKIP_REASON);

const PUBLIC_BASE_URL = 'https://subs.example.com';
const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36';
const PHONE: BrowserContextOptions = {
  viewport: { width: 360, height: 740 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  userAgent: ANDROID_UA,
};
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };
/** The top of an element in the page, to compare what comes first on screen. */
const topOf = (page: Page, selector: string) =>
  inPage<number>(page, `document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect().top + scrollY`);

/** A tab that records every request, console error, page error and CSP violation. */
interface Tab {
  page: Page;
  requests: string[];
  problems: string[];
}

/** Page-side code is written as strings: the project compiles without the DOM library. */
const inPage = <T>(page: Page, expression: string): Promise<T> => page.evaluate<T>(expression);
/**
 * Polls from outside the page: page.waitForFunction evaluates its string inside the page, which the page's CSP
 * (no 'unsafe-eval') may refuse.
 */
async function waitForPage(page: Page, expression: string): Promise<void> {
  const started = Date.now();
  while (!(await inPage<boolean>(page, expression))) {
    if (Date.now() - started > 10_000) throw new Error(`timed out waiting for ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const waitForText = (page: Page, id: string) =>
  waitForPage(page, `(document.getElementById(${JSON.stringify(id)})?.textContent ?? '') !== ''`);

/** Collects CSP violations in window.violations from the first script on. */
const RECORD_VIOLATIONS = `window.violations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.violations.push(event.violatedDirective + ' ' + event.blockedURI);
});`;

let browser: Browser;

(executablePath ? describe : describe.skip)(executablePath ? 'link page in Chromium' : SKIP_REASON, () => {
  const t = useTestApp('sqlite', { PUBLIC_BASE_URL });
  const contexts: BrowserContext[] = [];
  let origin = '';
  let token = '';
  let link = '';

  beforeAll(async () => {
    browser = await launchChromium(executablePath as string);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no TCP address');
    origin = `http://127.0.0.1:${address.port}`;
    const owner = await t.newUser();
    const created = await t.call('POST', '/api/v1/subs', {
      token: owner.token,
      body: {
        name: 'Family VPN',
        description: 'Home, office and travel servers',
        sources: [`${vlessUri()}#Amsterdam`, `${trojanUri()}#Frankfurt`, `${ssUri()}#Helsinki`],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    token = created.json<{ token: string }>().token;
    link = `${PUBLIC_BASE_URL}/sub/${token}`;
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
  });

  async function open(
    options: BrowserContextOptions,
    path = `/sub/${token}`,
    before?: (page: Page) => Promise<unknown>,
  ) {
    const context = await browser.newContext({ locale: 'en-US', timezoneId: 'UTC', ...options });
    contexts.push(context);
    const page = await context.newPage();
    const tab: Tab = { page, requests: [], problems: [] };
    page.on('request', (request) => tab.requests.push(request.url()));
    page.on('pageerror', (error) => tab.problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') tab.problems.push(`console: ${message.text()}`);
    });
    await page.addInitScript(RECORD_VIOLATIONS);
    if (before) await before(page);
    const response = await page.goto(origin + path);
    return { tab, page, response };
  }

  /** No CSP violation, no error, and no request to anywhere but the page's own origin (data: URLs aside). */
  async function expectClean({ page, requests, problems }: Tab) {
    expect(await inPage(page, 'window.violations')).toEqual([]);
    expect(problems).toEqual([]);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'))).toEqual([]);
  }

  it('renders on a desktop with every deep link well formed, no foreign request and no CSP violation', async () => {
    const { tab, page, response } = await open({ viewport: { width: 1280, height: 900 } });
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    await page.waitForSelector('html.ready');
    expect(await page.textContent('h1')).toBe('Family VPN');
    expect(await page.textContent('#fact-servers dd')).toBe('3');
    expect(await page.textContent('#updated')).not.toContain('UTC'); // shown in the visitor's time
    expect(await page.inputValue('#link')).toBe(link);
    expect(await page.locator('#qr svg').count()).toBe(1);
    expect((await page.locator('#qr svg').boundingBox())?.width).toBeGreaterThan(150);
    // The headless UA says Linux: that platform opens by itself.
    expect(await page.getAttribute('details[data-platform="linux"]', 'open')).toBe('');
    expect(await page.getAttribute('details[data-platform="android"]', 'open')).toBeNull();

    const hrefs = await page.$$eval('a.app', (anchors) => anchors.map((a) => a.getAttribute('href') ?? ''));
    const expected = PLATFORMS.reduce(
      (sum, { id }) => sum + CLIENT_APPS.filter((app) => app.platforms.includes(id)).length,
      0,
    );
    expect(hrefs).toHaveLength(expected);
    const schemes = new Set(CLIENT_APPS.map((app) => app.template.slice(0, app.template.indexOf(':') + 1)));
    const targets = new Set([link, `${link}/mihomo`, `${link}/sing-box`]);
    for (const href of hrefs) {
      const url = new URL(href);
      expect(schemes, href).toContain(url.protocol);
      const carried = url.searchParams.get('url') ?? carriedWithoutQuery(href);
      expect(targets, href).toContain(carried);
    }
    await expectClean(tab);
  });

  it('fits 360 px without sideways scrolling and opens the Android apps on an Android phone', async () => {
    const { tab, page } = await open({
      viewport: { width: 360, height: 780 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      userAgent: ANDROID_UA,
    });
    await page.waitForSelector('html.ready');
    expect(await inPage<number>(page, 'document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    expect(await page.getAttribute('details[data-platform="android"]', 'open')).toBe('');
    const buttons = await page.locator('details[data-platform="android"] a.app').all();
    expect(buttons.length).toBe(CLIENT_APPS.filter((app) => app.platforms.includes('android')).length);
    for (const button of buttons) {
      const box = await button.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(360);
      expect(box!.height).toBeGreaterThanOrEqual(36); // a comfortable tap target
    }
    await expectClean(tab);
  });

  it('copies the link with the clipboard API', async () => {
    const { tab, page } = await open({ permissions: ['clipboard-read', 'clipboard-write'] });
    await page.waitForSelector('html.ready');
    await page.click('button[data-copy="link"]');
    await waitForText(page, 'link-status');
    expect(await page.textContent('#link-status')).toBe('Copied to the clipboard.');
    expect(await inPage(page, 'navigator.clipboard.readText()')).toBe(link);
    await page.click('button[data-copy="link-mihomo"]');
    await waitForText(page, 'link-mihomo-status');
    expect(await inPage(page, 'navigator.clipboard.readText()')).toBe(`${link}/mihomo`);
    await expectClean(tab);
  });

  it('selects the link when there is no clipboard API', async () => {
    const { tab, page } = await open({}, `/sub/${token}`, (p) =>
      p.addInitScript("Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });"),
    );
    await page.waitForSelector('html.ready');
    expect(await inPage(page, 'typeof navigator.clipboard')).toBe('undefined');
    await page.click('button[data-copy="link"]');
    await waitForText(page, 'link-status');
    expect(await page.textContent('#link-status')).toMatch(/^(Copied to the clipboard\.|Selected: press Ctrl\+C)/);
    const selection = await inPage(
      page,
      `({ id: document.activeElement.id,
         selected: document.activeElement.value.slice(document.activeElement.selectionStart, document.activeElement.selectionEnd) })`,
    );
    expect(selection).toEqual({ id: 'link', selected: link });
    await expectClean(tab);
  });

  it('renders dark when the system asks for it', async () => {
    const { tab, page } = await open({ colorScheme: 'dark', viewport: { width: 360, height: 780 } });
    await page.waitForSelector('html.ready');
    const colors = await inPage<Record<string, string>>(
      page,
      `({ body: getComputedStyle(document.body).backgroundColor, text: getComputedStyle(document.body).color,
         qr: getComputedStyle(document.querySelector('#qr svg rect')).fill })`,
    );
    expect(colors.body).toBe('rgb(18, 20, 23)');
    expect(colors.text).toBe('rgb(232, 234, 237)');
    expect(colors.qr).toBe('rgb(255, 255, 255)'); // the code stays dark on light, as scanners need
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await inPage(page, 'getComputedStyle(document.body).backgroundColor')).toBe('rgb(244, 245, 247)');
    await expectClean(tab);
  });

  it('shows the HTML 404 page for an unknown token, cleanly', async () => {
    const { tab, page, response } = await open({}, `/sub/${'A'.repeat(43)}`);
    expect(response?.status()).toBe(404);
    expect(await page.textContent('h1')).toBe('Subscription not found');
    await expectClean({ ...tab, problems: tab.problems.filter((p) => !p.includes('404')) });
  });

  it('puts the app buttons before the QR code on a phone, the QR code first on a desktop', async () => {
    const phone = await open(PHONE);
    await phone.page.waitForSelector('html.ready');
    const firstApp = await topOf(phone.page, 'details[data-platform="android"] a.app');
    expect(firstApp).toBeLessThan(await topOf(phone.page, '#qr'));
    expect(await phone.page.isVisible('details[data-platform="android"] a.app')).toBe(true);
    expect(await phone.page.getAttribute('#page', 'data-platform')).toBe('android');
    await expectClean(phone.tab);

    const desktop = await open(DESKTOP);
    await desktop.page.waitForSelector('html.ready');
    expect(await topOf(desktop.page, '#qr')).toBeLessThan(await topOf(desktop.page, '#apps-card'));
    await expectClean(desktop.tab);
  });

  it('shows an expired subscription with a visible banner and its support link', async () => {
    const owner = await t.newUser();
    const created = await t.call('POST', '/api/v1/subs', {
      token: owner.token,
      body: {
        name: 'Old plan',
        sources: [vlessUri()],
        support_url: 'https://help.example.com/renew',
        userinfo: { mode: 'fixed', expire: Math.floor(Date.now() / 1000) - 3600 },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { tab, page } = await open(PHONE, `/sub/${created.json<{ token: string }>().token}`);
    await page.waitForSelector('html.ready');
    expect(await page.isVisible('#banner')).toBe(true);
    expect(await page.textContent('#banner .banner-title')).toBe('This subscription has expired');
    expect(await page.getAttribute('#banner a.banner-link', 'href')).toBe('https://help.example.com/renew');
    // Prominent: the banner is on the first screen of a phone.
    expect(await topOf(page, '#banner')).toBeLessThan(740);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await expectClean(tab);
  });

  it('has no serious or critical axe violation on a phone or a desktop, light or dark', async () => {
    for (const options of [PHONE, DESKTOP, { ...PHONE, colorScheme: 'dark' as const }]) {
      const { tab, page } = await open(options);
      await page.waitForSelector('html.ready');
      expect(await seriousAxeViolations(page)).toEqual([]);
      await expectClean(tab);
    }
  });

  it('would notice a CSP violation (the listener is live)', async () => {
    const { page } = await open({});
    await page.waitForSelector('html.ready');
    await inPage(
      page,
      "document.body.append(Object.assign(document.createElement('img'), { src: 'https://example.com/pixel.png' }))",
    );
    await waitForPage(page, 'window.violations.length > 0');
    expect(await inPage(page, 'window.violations')).toEqual(['img-src https://example.com/pixel.png']);
  });
});

const LOGO = `data:image/svg+xml;base64,${Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="14" fill="#0a7d5a"/></svg>',
).toString('base64')}`;
const BRANDING: Branding = {
  service_name: 'North VPN',
  logo: LOGO,
  accent_color: '#0a7d5a',
  support_url: 'https://help.example.com/',
};

(executablePath ? describe : describe.skip)(executablePath ? 'link page views in Chromium' : SKIP_REASON, () => {
  const t = useTestApp('sqlite', { PUBLIC_BASE_URL, ADMIN_SECRET: 'link-page-views-secret-of-at-least-32-chars' });
  let viewsBrowser: Browser;
  let origin = '';
  let path = '';
  const contexts: BrowserContext[] = [];
  const usage = { upload: 3 * 1024 ** 3, download: 9 * 1024 ** 3, total: 50 * 1024 ** 3, expire: 0 };

  beforeAll(async () => {
    viewsBrowser = await launchChromium(executablePath as string);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no TCP address');
    origin = `http://127.0.0.1:${address.port}`;
    const branded = await t.admin('PUT', '/branding', BRANDING);
    expect(branded.statusCode, branded.body).toBe(200);
    const owner = await t.newUser();
    const created = await t.call('POST', '/api/v1/subs', {
      token: owner.token,
      body: {
        name: 'Family VPN',
        description: 'Home, office and travel servers',
        sources: [`${vlessUri()}#Amsterdam`, `${trojanUri()}#Frankfurt`, `${ssUri()}#Helsinki`],
        userinfo: { mode: 'fixed', ...usage, expire: Math.floor(Date.now() / 1000) + 20 * 86_400 },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    path = `/sub/${created.json<{ token: string }>().token}`;
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await viewsBrowser?.close();
  });

  async function openView(options: BrowserContextOptions, query = '') {
    const context = await viewsBrowser.newContext({ timezoneId: 'UTC', ...options });
    contexts.push(context);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    await page.addInitScript(RECORD_VIOLATIONS);
    await page.goto(`${origin}${path}${query}`);
    await page.waitForSelector('html.ready');
    return { page, context, problems };
  }

  it('renders Persian right to left for a Persian browser, cleanly and accessibly', async () => {
    const { page, problems } = await openView({ ...PHONE, locale: 'fa-IR' });
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    expect(await page.getAttribute('html', 'lang')).toBe('fa');
    expect(await inPage(page, 'getComputedStyle(document.body).direction')).toBe('rtl');
    expect(await page.textContent('#link-title')).toBe('لینک اشتراک');
    // The apps still come first on the phone, and the link reads left to right.
    expect(await topOf(page, '#apps-card')).toBeLessThan(await topOf(page, '#qr'));
    expect(await inPage(page, "getComputedStyle(document.getElementById('link')).direction")).toBe('ltr');
    expect(await inPage(page, 'document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await inPage(page, 'window.violations')).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('switches language from the page and remembers the choice', async () => {
    const { page, context, problems } = await openView({ ...DESKTOP, locale: 'en-US' });
    expect(await page.textContent('#apps-title')).toBe('Add to an app');
    await page.click('#langs a[hreflang="ru"]');
    await page.waitForSelector('html[lang="ru"].ready');
    expect(await page.textContent('#apps-title')).toBe('Добавить в приложение');
    expect(await page.getAttribute('#langs a[aria-current]', 'hreflang')).toBe('ru');
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'subweave_lang')?.value).toBe('ru');
    // Without ?lang= the remembered choice wins over the browser's English.
    await page.goto(`${origin}${path}`);
    await page.waitForSelector('html.ready');
    expect(await page.getAttribute('html', 'lang')).toBe('ru');
    await page.click('#langs a[hreflang="zh-Hans"]');
    await page.waitForSelector('html[lang="zh-Hans"].ready');
    expect(await page.textContent('#fact-servers dt')).toBe('节点');
    expect(await inPage(page, 'window.violations')).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('shows the branding: name, logo as an image, accent colour on the buttons', async () => {
    const { page, problems } = await openView(DESKTOP);
    expect(await page.textContent('#brand-name')).toBe('North VPN');
    expect(await page.isVisible('#brand-logo')).toBe(true);
    expect(await inPage(page, "document.getElementById('brand-logo').naturalWidth > 0")).toBe(true);
    expect(await inPage(page, "getComputedStyle(document.querySelector('button[data-copy]')).backgroundColor")).toBe(
      'rgb(10, 125, 90)',
    );
    expect(await page.title()).toBe('Family VPN · North VPN');
    expect(await page.getAttribute('#support', 'href')).toBe('https://help.example.com/');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await inPage(page, 'window.violations')).toEqual([]);
    expect(problems).toEqual([]);
  });
});

/** The link inside `happ://add/<link>`, `hiddify://import/<link>#name`, `streisand://import/<link>`, `sub://<base64>`. */
function carriedWithoutQuery(href: string): string {
  if (href.startsWith('sub://')) return Buffer.from(href.slice('sub://'.length), 'base64').toString('utf8');
  const start = href.indexOf('https://');
  const end = href.indexOf('#');
  return href.slice(start, end === -1 ? undefined : end);
}
