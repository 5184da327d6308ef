// The link page in headless Chromium against the real app on a loopback port: CSP, requests, deep links, copy, dark mode, 360 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { CLIENT_APPS, PLATFORMS } from '../../src/modules/resolve/link-page.apps.js';
import { findChromium, launchChromium } from '../support/chromium.js';
import { useTestApp } from '../support/harness.js';
import { ssUri, trojanUri, vlessUri } from '../support/factories.js';

const executablePath = findChromium();
const SKIP_REASON =
  'link page browser tests skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)';
if (!executablePath) console.warn(SKIP_REASON);

const PUBLIC_BASE_URL = 'https://subs.example.com';
const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36';
/** LINK_PAGE_SCREENSHOTS=1 rewrites the screenshots under docs/ that the README shows. */
const SAVE_SCREENSHOTS = process.env['LINK_PAGE_SCREENSHOTS'] === '1';

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
    if (SAVE_SCREENSHOTS) await page.screenshot({ path: 'docs/link-page-desktop.png', fullPage: true });
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
    if (SAVE_SCREENSHOTS) await page.screenshot({ path: 'docs/link-page-mobile.png', fullPage: true });
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
    expect(await page.textContent('#link-status')).toMatch(/^(Copied\.|Selected: press Ctrl\+C)/);
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

/** The link inside `happ://add/<link>`, `hiddify://import/<link>#name`, `streisand://import/<link>`, `sub://<base64>`. */
function carriedWithoutQuery(href: string): string {
  if (href.startsWith('sub://')) return Buffer.from(href.slice('sub://'.length), 'base64').toString('utf8');
  const start = href.indexOf('https://');
  const end = href.indexOf('#');
  return href.slice(start, end === -1 ? undefined : end);
}
