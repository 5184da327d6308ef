// The dashboard's Activity screen and a subscription's recent requests in headless Chromium against the built app on
// SQLite: history rows after real fetches of the link, a change seen in Activity with older entries on demand, at
// 1280 and 360 px, light and dark, in English and Persian, with axe-core and no CSP violation or console error.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { freePort } from '../../scripts/support/private-services.js';
import { findChromium } from '../support/chromium.js';
import { catalog, LANGUAGES, text, useDashboard, VIEWPORTS } from '../support/dashboard-browser.js';
import { adminCreateUser, ssUri, vlessUri } from '../support/factories.js';

const executablePath = findChromium();
const SKIP_REASON =
  'dashboard activity browser tests skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)';
if (!executablePath) console.warn(SKIP_REASON);

const ROOT = join(import.meta.dirname, '../..');
const ADMIN_SECRET = 'dashboard-activity-admin-of-at-least-32-characters';
/** DASHBOARD_SCREENSHOTS=1 rewrites the screenshots under docs/ that docs/dashboard.md shows. */
const SAVE_SCREENSHOTS = process.env['DASHBOARD_SCREENSHOTS'] === '1';

const LONG_AGENT =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8 Pro) AppleWebKit/537.36 (KHTML, like Gecko) Hiddify/2.5.7 Chrome/126.0 Mobile';
const AGENTS = ['v2rayNG/1.8.19', 'clash-verge/v1.7.7', LONG_AGENT];

const [DESKTOP, PHONE] = VIEWPORTS;
const [ENGLISH, PERSIAN] = LANGUAGES;
const CASES = [
  { viewport: DESKTOP, language: ENGLISH },
  { viewport: PHONE, language: ENGLISH },
  { viewport: PHONE, language: PERSIAN },
];

const PORT = await freePort();

(executablePath ? describe : describe.skip)(executablePath ? 'dashboard activity in Chromium' : SKIP_REASON, () => {
  const { t, origin, openTab, signIn, expectAccessible } = useDashboard(
    PORT,
    { ADMIN_SECRET },
    executablePath as string,
  );

  async function userApi(token: string, method: string, path: string, body?: unknown): Promise<Response> {
    return fetch(`${origin}/api/v1${path}`, {
      method,
      headers: { 'API-Token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  /** A user with one subscription of two servers whose link three apps have fetched. */
  async function userWithHistory(): Promise<{ apiToken: string; subToken: string }> {
    const apiToken = (await adminCreateUser(t)).api_token;
    const sub = await userApi(apiToken, 'POST', '/subs', {
      name: 'Family VPN',
      sources: [`${vlessUri()}#Amsterdam`, `${ssUri()}#Helsinki`],
    });
    expect(sub.status).toBe(201);
    const subToken = ((await sub.json()) as { token: string }).token;
    for (const agent of AGENTS) {
      const served = await fetch(`${origin}/sub/${subToken}`, { headers: { 'user-agent': agent } });
      expect(served.status).toBe(200);
      await served.arrayBuffer();
    }
    // A read writes this instance's pending fetches first (docs/api.md, Request history); poll rather than trust it.
    await expect
      .poll(async () => {
        const history = await userApi(apiToken, 'GET', `/subs/${subToken}/requests`);
        return ((await history.json()) as { requests: unknown[] }).requests.length;
      })
      .toBe(AGENTS.length);
    return { apiToken, subToken };
  }

  /** Presses Tab until `target` has the focus; fails after 100 presses. */
  async function tabUntilFocused(page: Page, target: Locator): Promise<void> {
    for (let press = 0; press < 100; press++) {
      if (await target.evaluate((element) => element === element.ownerDocument.activeElement)) return;
      await page.keyboard.press('Tab');
    }
    throw new Error('Tab never reached the element');
  }

  for (const { viewport, language } of CASES) {
    it(`shows a subscription's recent requests and the account's activity (${viewport.name}, ${language.code})`, async () => {
      const shell = await catalog('shell', language.code);
      const subs = await catalog('screens/subscriptions', language.code);
      const activity = await catalog('screens/activity', language.code);
      const words = await catalog('audit', language.code);
      const { apiToken, subToken } = await userWithHistory();
      const { page, problems } = await openTab(viewport, language.locale);
      const snap = async (name: string) => {
        // docs/dashboard.md shows the desktop in English and the phone in Persian.
        if (SAVE_SCREENSHOTS && (viewport.name === 'desktop') === (language.code === 'en')) {
          const file = `dashboard-${name}-${viewport.name}-${language.code}.png`;
          await page.screenshot({ path: join(ROOT, 'docs', file) });
        }
      };

      await signIn(page, apiToken, language.code);
      await page.getByRole('heading', { name: text(subs, 'list.title') }).waitFor();
      expect(await page.evaluate('document.documentElement.dir')).toBe(language.dir);

      // The subscription: one row per fetch, newest first, with the format, status, network and servers served.
      await page.getByRole('link', { name: text(subs, 'list.open', { name: 'Family VPN' }) }).click();
      await page.getByRole('heading', { name: 'Family VPN' }).waitFor();
      const region = page.getByRole('region', { name: text(subs, 'history.title') });
      const rows = region.locator('tbody tr');
      await rows.first().waitFor();
      expect(await rows.count()).toBe(AGENTS.length);
      expect(await rows.nth(0).textContent()).toContain('Hiddify');
      expect(await rows.nth(2).textContent()).toContain('v2rayNG/1.8.19');
      expect(await rows.nth(0).textContent()).toContain('127.0.0.0/24');
      expect(await rows.nth(0).locator('td').nth(3).textContent()).toBe('200');
      const two = new Intl.NumberFormat(language.code).format(2);
      expect(await rows.nth(0).locator('td').nth(6).textContent()).toBe(two);

      await region.scrollIntoViewIfNeeded();
      await snap('requests');

      // The long user agent is cut on screen; focusing it (keyboard alone) shows the whole of it.
      const agent = rows.nth(0).locator('td').nth(4).locator('[tabindex="0"]');
      const cut = await agent.evaluate((element) => element.scrollWidth > element.clientWidth);
      expect(cut).toBe(true);
      await tabUntilFocused(page, agent);
      await page.getByRole('tooltip').filter({ hasText: LONG_AGENT }).waitFor();
      await page.keyboard.press('Tab');

      // A fetch made now shows after "Refresh", newest first.
      const again = await fetch(`${origin}/sub/${subToken}`, { headers: { 'user-agent': 'sing-box/1.10.0' } });
      expect(again.status).toBe(200);
      await again.arrayBuffer();
      await page.getByRole('button', { name: text(subs, 'history.refresh') }).click();
      await expect.poll(() => rows.count()).toBe(AGENTS.length + 1);
      expect(await rows.nth(0).textContent()).toContain('sing-box/1.10.0');

      // On a phone the table scrolls sideways inside its region, which the keyboard can focus; the page does not.
      if (viewport.width < 768) {
        expect(await region.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
        expect(await region.getAttribute('tabindex')).toBe('0');
        expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      }
      await expectAccessible(page, 'subscription with its recent requests');

      // A change made through the API shows in Activity, by "you", with the fields it changed.
      const patched = await userApi(apiToken, 'PATCH', `/subs/${subToken}`, { description: 'for the family' });
      expect(patched.status).toBe(200);
      const nav = page.getByRole('navigation', { name: text(shell, 'nav.label') });
      if (viewport.width < 768) await page.getByRole('button', { name: text(shell, 'nav.toggle') }).click();
      await nav.getByRole('link', { name: text(shell, 'nav.activity') }).click();
      await page.getByRole('heading', { name: text(activity, 'title') }).waitFor();
      const entries = page.getByRole('list', { name: text(activity, 'title') }).getByRole('listitem');
      await entries.first().waitFor();
      const newest = entries.first();
      expect(await newest.textContent()).toContain(text(words, 'actions.subscription.update'));
      expect(await newest.textContent()).toContain(text(activity, 'actors.you'));
      // The changed field by its label in the user's language, never its key.
      const field = text(words, 'fields.description');
      expect(await newest.textContent()).toContain(text(words, 'summary.fields', { value: field }));
      expect(await newest.textContent()).not.toContain('description');
      // The update's entry carries only the subscription's id; the screen finds its name among the user's.
      expect(await newest.textContent()).toContain(text(activity, 'targets.subscriptionNamed', { name: 'Family VPN' }));
      // Oldest first from the bottom: the admin created the account, then the user the subscription.
      expect(await entries.count()).toBe(3);
      const creation = entries.nth(1);
      expect(await creation.textContent()).toContain(text(words, 'actions.subscription.create'));
      expect(await creation.textContent()).toContain(
        text(activity, 'targets.subscriptionNamed', { name: 'Family VPN' }),
      );
      expect(await entries.last().textContent()).toContain(text(activity, 'actors.admin'));
      await page.getByText(text(activity, 'end')).waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await expectAccessible(page, 'activity');
      await snap('activity');

      // Dark theme: axe again on both screens.
      await page.getByRole('button', { name: text(shell, 'colorScheme.toDark') }).click();
      expect(await page.evaluate('document.documentElement.dataset.mantineColorScheme')).toBe('dark');
      await expectAccessible(page, 'activity (dark)');
      await page.goto(`${origin}/app/subs/${subToken}`);
      await page.getByRole('region', { name: text(subs, 'history.title') }).waitFor();
      await expectAccessible(page, 'subscription with its recent requests (dark)');

      expect(problems).toEqual([]);
    }, 120_000);
  }

  it('pages through older entries with the cursor, keyboard alone', async () => {
    const { apiToken, subToken } = await userWithHistory();
    // The account's creation, the subscription's and 55 changes: more than the first page of 50.
    for (let change = 1; change <= 55; change++) {
      const patched = await userApi(apiToken, 'PATCH', `/subs/${subToken}`, { description: `change ${change}` });
      expect(patched.status).toBe(200);
    }
    const { page, problems } = await openTab({ width: 1280, height: 800 }, 'en-US');
    await signIn(page, apiToken, 'en');
    await page.getByRole('heading', { name: 'Subscriptions' }).waitFor();
    await page.goto(`${origin}/app/activity`);
    const entries = page.getByRole('list', { name: 'Activity' }).getByRole('listitem');
    await entries.first().waitFor();
    expect(await entries.count()).toBe(50);
    expect(await page.getByText('That is everything.').count()).toBe(0);

    const more = page.getByRole('button', { name: 'Show older entries' });
    await tabUntilFocused(page, more);
    await page.keyboard.press('Enter');
    await page.getByText('That is everything.').waitFor();
    expect(await entries.count()).toBe(57);
    expect(await entries.nth(55).textContent()).toContain('Created a subscription');
    expect(await entries.last().textContent()).toContain('Created the account');
    expect(await entries.last().textContent()).toContain('By: Administrator');
    expect(await more.count()).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);
});
