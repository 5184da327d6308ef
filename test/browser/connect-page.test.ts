// The connect page in headless Chromium against the real app on a loopback port: check, approve, reject, revoke, bad token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { findChromium, launchChromium } from '../support/chromium.js';
import { describeEachDatabase, TEST_BASE_URL, useTestApp, type TestApp } from '../support/harness.js';
import { decide, ME, requestAccess } from '../support/factories.js';
import { expectError, expectStatus } from '../support/expect.js';
import { seriousAxeViolations } from '../support/axe.js';

const executablePath = findChromium();
const SKIP_REASON =
  'connect page browser tests skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)';
if (!executablePath) console.warn(SKIP_REASON);

let browser: Browser;

(executablePath ? describe : describe.skip)(executablePath ? 'connect page in Chromium' : SKIP_REASON, () => {
  beforeAll(async () => {
    browser = await launchChromium(executablePath as string);
  });
  afterAll(async () => {
    await browser?.close();
  });

  describeEachDatabase('connect page flow', (kind) => {
    const t = useTestApp(kind, { ADMIN_SECRET: 'connect-page-secret-of-at-least-32-characters' });
    const tab = { origin: '', page: undefined as unknown as Page, problems: [] as string[] };
    beforeAll(async () => {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const address = t.app.server.address();
      if (!address || typeof address === 'string') throw new Error('no TCP address');
      tab.origin = `http://127.0.0.1:${address.port}`;
      // One phone-sized tab per suite (a new renderer costs seconds here); each test navigates afresh.
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      tab.page = await context.newPage();
      tab.page.on('pageerror', (error) => tab.problems.push(`pageerror: ${error.message}`));
      tab.page.on('console', (message) => {
        if (message.type() === 'error') tab.problems.push(`console: ${message.text()}`);
      });
    });
    afterAll(async () => {
      await tab.page?.context().close();
    });

    it('checks a pending request, approves it, then revokes it', async () => {
      const { page, user, provider, problems } = await openRequest(t, tab);
      await checkWith(page, user.token);
      await expectState(page, 'pending', 'Pending');
      expect(await page.isVisible('#revoke')).toBe(false);
      await page.click('#approve');
      await expectState(page, 'approved', 'Approved');
      expect(await page.textContent('#notice')).toContain(`${provider.name} can now manage subscriptions`);
      expect(await connectionStatus(t, user.token, provider.name)).toBe('approved');
      await screenshotIfAsked(page);

      await page.click('#revoke');
      await expectState(page, 'revoked', 'Revoked');
      expect(await connectionStatus(t, user.token, provider.name)).toBe('revoked');
      expect(page.url()).not.toContain(user.token);
      expect(problems).toEqual([]);
    });

    it('rejects a pending request: the record is gone', async () => {
      const { page, user, provider, problems } = await openRequest(t, tab);
      await checkWith(page, user.token);
      await expectState(page, 'pending', 'Pending');
      await page.click('#reject');
      await expectState(page, 'none', 'No request');
      expect(await page.textContent('#notice')).toContain('Request rejected');
      expectError(
        await t.call('GET', `${ME}/providers/${provider.name}`, { token: user.token }),
        404,
        'connection_not_found',
      );
      expect(problems).toEqual([]);
    });

    it('shows the invalid_token message for a wrong token and no state', async () => {
      const { page, problems } = await openRequest(t, tab);
      await checkWith(page, 'definitely-not-a-token');
      await page.waitForSelector('#notice[data-kind="error"]');
      expect(await page.textContent('#notice')).toContain('This API token is not valid');
      expect(await page.isVisible('#state')).toBe(false);
      expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
    });

    it('warns when the token belongs to another user than the link names, and forgets the token', async () => {
      const { page, user } = await openRequest(t, tab, (userId) => `?user_id=${userId + 1}&invite=x.1`);
      expect(await page.textContent('.meta strong')).toBe(String(user.userId + 1));
      await checkWith(page, user.token);
      await expectState(page, 'pending', 'Pending');
      await page.waitForSelector('#notice[data-kind="error"]');
      expect(await page.textContent('#notice')).toContain(`belongs to user ${user.userId}`);
      await page.click('#forget');
      expect(await page.inputValue('#token')).toBe('');
      expect(await page.isVisible('#state')).toBe(false);
    });

    it('answers a stale approve with the 409 message and the current state', async () => {
      const { page, user, provider } = await openRequest(t, tab);
      await checkWith(page, user.token);
      await expectState(page, 'pending', 'Pending');
      expectStatus(await decide(t, user.token, provider.name, 'approve'), 200); // approved elsewhere meanwhile
      await page.click('#approve');
      await expectState(page, 'approved', 'Approved');
      expect(await page.textContent('#notice')).toContain('no longer pending');
    });

    /** A new tab in its own context (its own locale and cookies), at the connect page of a fresh provider. */
    async function freshTab(locale: string, query = '') {
      const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
      const provider = await t.newProvider();
      const response = await page.goto(`${tab.origin}/connect/${provider.name}${query}`);
      expect(response?.status()).toBe(200);
      await page.waitForSelector('#connect.ready');
      return { page, context, problems, provider };
    }

    it('speaks Persian right to left to a Persian browser, explains tokens, and passes axe', async () => {
      const { page, context, problems, provider } = await freshTab('fa-IR');
      try {
        expect(await page.getAttribute('html', 'dir')).toBe('rtl');
        expect(await page.textContent('h1')).toBe(`اتصال به ${provider.name}؟`);
        expect(await page.textContent('#where summary')).toBe('توکن را از کجا بگیرم؟');
        await page.click('#where summary');
        expect(await page.isVisible('#where p')).toBe(true);
        await checkWith(page, '');
        await page.waitForSelector('#notice[data-kind="error"]');
        expect(await page.textContent('#notice')).toBe('اول توکن API خود را بچسبانید.');
        expect(await seriousAxeViolations(page)).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('switches language from the page, keeps the user id, and remembers the choice', async () => {
      const { page, context, problems, provider } = await freshTab('en-US', '?user_id=42');
      try {
        expect(await page.textContent('label[for="token"]')).toBe('Your API token');
        await page.click('#langs a[hreflang="zh-Hans"]');
        await page.waitForSelector('html[lang="zh-Hans"] #connect.ready');
        expect(new URL(page.url()).searchParams.get('user_id')).toBe('42');
        expect(await page.textContent('label[for="token"]')).toBe('你的 API 令牌');
        await page.goto(`${tab.origin}/connect/${provider.name}`);
        await page.waitForSelector('#connect.ready');
        expect(await page.getAttribute('html', 'lang')).toBe('zh-Hans');
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('opens a pasted sign-in link on this server instead of checking it as a token', async () => {
      const { page, context, problems } = await freshTab('ru-RU');
      try {
        expect(await page.getAttribute('#token', 'placeholder')).toBe('Вставьте токен или ссылку для входа');
        await page.fill('#token', 'https://subs.example.org/app/sign-in#code=Abc_123-x');
        const navigated = page.waitForURL((url) => url.pathname === '/app/sign-in');
        await page.click('#check');
        await navigated;
        expect(page.url()).toBe(`${tab.origin}/app/sign-in#code=Abc_123-x`);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('shows the branding and stays accessible with it', async () => {
      const logo = `data:image/svg+xml;base64,${Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="#5a2ca0"/></svg>',
      ).toString('base64')}`;
      expectStatus(await t.admin('PUT', '/branding', { service_name: 'Violet', logo, accent_color: '#5a2ca0' }), 200);
      try {
        const { page, context, problems } = await freshTab('en-US');
        try {
          expect(await page.textContent('#brand-name')).toBe('Violet');
          expect(await page.evaluate("document.getElementById('brand-logo').naturalWidth > 0")).toBe(true);
          expect(await page.evaluate("getComputedStyle(document.getElementById('check')).backgroundColor")).toBe(
            'rgb(90, 44, 160)',
          );
          expect(await seriousAxeViolations(page)).toEqual([]);
          expect(problems).toEqual([]);
        } finally {
          await context.close();
        }
      } finally {
        expectStatus(await t.admin('PUT', '/branding', { service_name: null, logo: null, accent_color: null }), 200);
      }
    });
  });
});

/** A fresh user, a provider and its pending request; the page opened at the returned connection_link. */
async function openRequest(
  t: TestApp,
  tab: { origin: string; page: Page; problems: string[] },
  query = (_userId: number) => '',
) {
  const user = await t.newUser();
  const provider = await t.newProvider();
  const { connection_link: link } = await requestAccess(t, provider, user.userId);
  expect(link).toBe(`${TEST_BASE_URL}/connect/${provider.name}`);
  const { page, problems } = tab;
  problems.length = 0;
  const response = await page.goto(tab.origin + (link ?? '').slice(TEST_BASE_URL.length) + query(user.userId));
  expect(response?.status()).toBe(200);
  expect(await page.textContent('#provider-name')).toBe(provider.name);
  await page.waitForSelector('#connect.ready');
  return { page, user, provider, problems };
}

async function checkWith(page: Page, token: string) {
  await page.fill('#token', token);
  await page.click('#check');
}

async function expectState(page: Page, state: string, label: string) {
  await page.waitForSelector(`#state-badge[data-state="${state}"]`, { timeout: 5_000 });
  expect(await page.textContent('#state-badge')).toBe(label);
  expect(await page.isVisible('#approve')).toBe(state === 'pending');
  expect(await page.isVisible('#reject')).toBe(state === 'pending');
  expect(await page.isVisible('#revoke')).toBe(state === 'approved');
}

async function connectionStatus(t: TestApp, token: string, name: string): Promise<string | null> {
  return expectStatus(await t.call('GET', `${ME}/providers/${name}`, { token }), 200).json<{ status: string | null }>()
    .status;
}

/** CONNECT_PAGE_SCREENSHOT=/tmp/x.png saves what a phone-sized screen shows after approving. */
async function screenshotIfAsked(page: Page) {
  const path = process.env['CONNECT_PAGE_SCREENSHOT'];
  if (path) await page.screenshot({ path, fullPage: true });
}
