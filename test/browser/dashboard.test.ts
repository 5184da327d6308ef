// The dashboard in headless Chromium against the built app on SQLite: sign in with the token and with a sign-in link,
// list and create subscriptions, copy the link, theme and language, sign out; at 1280 and 360 px, in English and
// Persian (right to left), with axe-core on every screen and no CSP violation.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { freePort } from '../../scripts/support/private-services.js';
import { findChromium } from '../support/chromium.js';
import { catalog, LANGUAGES, text, useDashboard, VIEWPORTS } from '../support/dashboard-browser.js';
import { adminCreateUser, ssUri, vlessUri } from '../support/factories.js';

const executablePath = findChromium();
const SKIP_REASON =
  'dashboard browser tests skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)';
if (!executablePath) console.warn(SKIP_REASON);

const ROOT = join(import.meta.dirname, '../..');
const ADMIN_SECRET = 'dashboard-admin-of-at-least-32-characters';
/** DASHBOARD_SCREENSHOTS=1 rewrites the screenshots under docs/ that docs/dashboard.md and the README show. */
const SAVE_SCREENSHOTS = process.env['DASHBOARD_SCREENSHOTS'] === '1';
const PORT = await freePort();

(executablePath ? describe : describe.skip)(executablePath ? 'dashboard in Chromium' : SKIP_REASON, () => {
  const { t, origin, openTab, expectAccessible } = useDashboard(PORT, { ADMIN_SECRET }, executablePath as string);

  it('serves the built app precompressed', async () => {
    const index = await fetch(`${origin}/app/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(await index.text())?.[1] ?? '';
    const asset = await fetch(`${origin}${script}`, { headers: { 'accept-encoding': 'br' } });
    expect(asset.headers.get('content-encoding')).toBe('br');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  for (const viewport of VIEWPORTS) {
    for (const language of LANGUAGES) {
      it(`signs in with the token, creates and lists a subscription, copies its link, signs out (${viewport.name}, ${language.code})`, async () => {
        const shell = await catalog('shell', language.code);
        const signIn = await catalog('screens/sign-in', language.code);
        const subs = await catalog('screens/subscriptions', language.code);
        const user = await adminCreateUser(t);
        const { page, problems } = await openTab(viewport, language.locale);
        const shown =
          (viewport.name === 'desktop' && language.code === 'en') ||
          (viewport.name === 'phone' && language.code === 'fa');
        const snap = async (name: string) => {
          if (SAVE_SCREENSHOTS && shown) {
            await page.screenshot({
              path: join(ROOT, 'docs', `dashboard-${name}-${viewport.name}-${language.code}.png`),
            });
          }
        };

        // Not signed in: /app/ leads to the sign-in screen, in the browser's language and direction.
        await page.goto(`${origin}/app/`);
        await page.getByRole('heading', { name: text(signIn, 'title') }).waitFor();
        expect(new URL(page.url()).pathname).toBe('/app/sign-in');
        expect(await page.evaluate('document.documentElement.dir')).toBe(language.dir);
        expect(await page.evaluate('document.documentElement.lang')).toBe(language.code);
        await expectAccessible(page, 'sign-in');
        await snap('sign-in');
        // An administrator without an API token finds the console from here.
        const toConsole = page.getByRole('link', { name: text(signIn, 'admin') });
        expect(await toConsole.getAttribute('href')).toBe('/app/admin');

        // A wrong token is refused with a message; the right one signs in (Enter submits the form).
        const tokenField = page.getByLabel(text(signIn, 'token'), { exact: true });
        await tokenField.fill('x'.repeat(43));
        await tokenField.press('Enter');
        await page
          .getByRole('alert')
          .filter({ hasText: text(signIn, 'errors.badToken') })
          .waitFor();
        await tokenField.fill(user.api_token);
        await tokenField.press('Enter');
        await page.getByRole('heading', { name: text(subs, 'list.title') }).waitFor();
        expect(new URL(page.url()).pathname).toBe('/app/subs');
        await page.getByText(text(subs, 'list.empty')).waitFor();
        await expectAccessible(page, 'subscriptions (empty)');

        // Create one with two servers pasted on two lines.
        await page.getByRole('button', { name: text(subs, 'list.create') }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel(text(subs, 'create.name')).fill('Family VPN');
        // A line that is no source is named in words, not as the server's zero-based "Source 0 is not ...".
        await dialog.getByLabel(text(subs, 'create.sources')).fill(`\n${vlessUri()}#Amsterdam\nnot a server`);
        await dialog.getByRole('button', { name: text(subs, 'create.submit') }).click();
        await dialog
          .getByRole('alert')
          .filter({ hasText: text(subs, 'errors.invalid_source', { data: 'not a server' }) })
          .waitFor();
        // Chromium logs the refusal; it is the only problem so far.
        expect(problems.splice(0)).toEqual([
          'console: Failed to load resource: the server responded with a status of 400 (Bad Request)',
        ]);
        await dialog.getByLabel(text(subs, 'create.sources')).fill(`${vlessUri()}#Amsterdam\n${ssUri()}#Helsinki`);
        await expectAccessible(page, 'create dialog');
        await dialog.getByRole('button', { name: text(subs, 'create.submit') }).click();

        // The detail screen: the link and its copy button.
        await page.getByRole('heading', { name: 'Family VPN' }).waitFor();
        const token = new URL(page.url()).pathname.split('/').pop() ?? '';
        const link = `${origin}/sub/${token}`;
        await page.getByText(link, { exact: true }).waitFor();
        await expectAccessible(page, 'subscription detail');
        await snap('subscription');
        await page.getByRole('button', { name: text(subs, 'detail.copy') }).click();
        await page.getByRole('button', { name: text(subs, 'detail.copied') }).waitFor();
        expect(await page.evaluate('navigator.clipboard.readText()')).toBe(link);
        const served = await fetch(link);
        expect(served.status).toBe(200);

        // Back to the list: the server's count of lines the link serves.
        await page.getByRole('link', { name: text(subs, 'detail.back') }).click();
        const two = new Intl.NumberFormat(language.code).format(2); // ۲ in Persian
        await page.getByText(text(subs, 'list.servers', { count: two })).waitFor();
        await expectAccessible(page, 'subscriptions');
        await snap('subscriptions');

        // Phone: the navigation sits behind the menu button.
        const nav = page.getByRole('navigation', { name: text(shell, 'nav.label') });
        if (viewport.width < 768) {
          expect(await nav.isVisible()).toBe(false);
          await page.getByRole('button', { name: text(shell, 'nav.toggle') }).click();
        }
        await nav.getByRole('link', { name: text(shell, 'nav.account') }).waitFor();

        // Dark theme, remembered across a reload; axe again in dark.
        await page.getByRole('button', { name: text(shell, 'colorScheme.toDark') }).click();
        expect(await page.evaluate('document.documentElement.dataset.mantineColorScheme')).toBe('dark');
        await page.reload();
        await page.getByRole('heading', { name: text(subs, 'list.title') }).waitFor();
        expect(await page.evaluate('document.documentElement.dataset.mantineColorScheme')).toBe('dark');
        await expectAccessible(page, 'subscriptions (dark)');
        await snap('subscriptions-dark');

        // Sign out (in the menu on phones): the session is gone and user screens lead back to sign-in.
        if (viewport.width < 768) await page.getByRole('button', { name: text(shell, 'nav.toggle') }).click();
        await page.getByRole('button', { name: text(shell, 'signOut') }).click();
        await page.getByRole('heading', { name: text(signIn, 'title') }).waitFor();
        const after = await page.evaluate<number>(`fetch('/api/v1/session').then((r) => r.status)`);
        expect(after).toBe(401);
        await page.goto(`${origin}/app/subs`);
        await page.getByRole('heading', { name: text(signIn, 'title') }).waitFor();

        expect(problems).toEqual([]);
      }, 120_000);
    }
  }

  /** Presses Tab (or `key`) until the focused element's aria-label, label or text is `label`; fails after 30 presses. */
  async function tabTo(page: Page, label: string, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
    for (let press = 0; press < 30; press++) {
      await page.keyboard.press(key);
      const focused = await page.evaluate<string>(
        `(() => {
          const element = document.activeElement;
          const label = element?.labels?.[0]?.textContent;
          return (element?.getAttribute('aria-label') || label || element?.textContent || '').trim();
        })()`,
      );
      if (focused === label) return;
    }
    throw new Error(`Tab never reached ${label}`);
  }

  it('works with the keyboard alone: skip link, sign in, create, open, copy', async () => {
    const user = await adminCreateUser(t);
    const { page, problems } = await openTab({ width: 1280, height: 800 }, 'en-US');
    await page.goto(`${origin}/app/sign-in`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The first Tab reaches the skip link, which moves the focus to the screen.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement.id')).toBe('main');
    await tabTo(page, 'API token');
    await page.keyboard.type(user.api_token);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Subscriptions' }).waitFor();

    await tabTo(page, 'New subscription');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    // The dialog puts the focus on its first field.
    await page.keyboard.type('Keyboard only');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Keyboard only' }).waitFor();
    await tabTo(page, 'Copy link');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Copied' }).waitFor();

    // The detail screen has dozens of controls below the link: the way back is above it.
    await tabTo(page, 'All subscriptions', 'Shift+Tab');
    await page.keyboard.press('Enter');
    await tabTo(page, 'Open Keyboard only');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Keyboard only' }).waitFor();
    expect(problems).toEqual([]);
  }, 120_000);

  it('switches the language, direction included, and remembers it', async () => {
    const { page, problems } = await openTab({ width: 1280, height: 800 }, 'en-US');
    await page.goto(`${origin}/app/sign-in`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    for (const [code, dir] of [
      ['fa', 'rtl'],
      ['ru', 'ltr'],
      ['zh', 'ltr'],
    ] as const) {
      await page.locator('header select').selectOption(code);
      const signIn = await catalog('screens/sign-in', code);
      await page.getByRole('heading', { name: text(signIn, 'title') }).waitFor();
      expect(await page.evaluate('document.documentElement.dir')).toBe(dir);
      await page.reload();
      await page.getByRole('heading', { name: text(signIn, 'title') }).waitFor();
      expect(await page.evaluate('document.documentElement.lang')).toBe(code);
      await expectAccessible(page, `sign-in (${code})`);
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('signs in through a one-time sign-in link, clears it from the address bar, and refuses it a second time', async () => {
    const user = await adminCreateUser(t);
    const minted = await t.admin('POST', `/users/${user.user_id}/sign-in-link`);
    expect(minted.statusCode, minted.body).toBe(201);
    const url = minted.json<{ url: string }>().url;
    expect(url).toMatch(new RegExp(`^${origin}/app/sign-in#code=`));

    const signIn = await catalog('screens/sign-in', 'fa');
    const subs = await catalog('screens/subscriptions', 'fa');
    const first = await openTab({ width: 360, height: 740 }, 'fa-IR');
    await first.page.goto(url);
    await first.page.getByRole('heading', { name: text(subs, 'list.title') }).waitFor();
    expect(await first.page.evaluate('location.hash')).toBe('');
    expect(first.problems).toEqual([]);
    // The code is in no history entry: going back never returns to the link.
    await first.page.goBack();
    expect(first.page.url()).not.toContain('code=');

    const second = await openTab({ width: 360, height: 740 }, 'fa-IR');
    await second.page.goto(url);
    await second.page
      .getByRole('alert')
      .filter({ hasText: text(signIn, 'errors.badLink') })
      .waitFor();
    expect(await second.page.evaluate('location.hash')).toBe('');
    await expectAccessible(second.page, 'sign-in link refused');
    expect(second.problems).toEqual([]);
  }, 120_000);
});
