// The dashboard's Connections and Account screens in headless Chromium against the built app on SQLite: a provider's
// request approved then revoked, a reject, a refused approve, a new API token shown once (the old one refused, the
// browser still signed in), sign out; at 1280 and 360 px, in English and Persian, light and dark, with the keyboard
// alone, with axe-core and no CSP violation.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { freePort } from '../../scripts/support/private-services.js';
import { findChromium } from '../support/chromium.js';
import { catalog, LANGUAGES, text, useDashboard, VIEWPORTS } from '../support/dashboard-browser.js';
import { adminCreateProvider, adminCreateUser } from '../support/factories.js';

const executablePath = findChromium();
const SKIP_REASON =
  'dashboard account browser tests skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)';
if (!executablePath) console.warn(SKIP_REASON);

const ROOT = join(import.meta.dirname, '../..');
const ADMIN_SECRET = 'dashboard-account-admin-of-at-least-32-characters';
/** DASHBOARD_SCREENSHOTS=1 rewrites the screenshots under docs/ that docs/dashboard.md shows. */
const SAVE_SCREENSHOTS = process.env['DASHBOARD_SCREENSHOTS'] === '1';
const PORT = await freePort();

(executablePath ? describe : describe.skip)(executablePath ? 'dashboard connections and account' : SKIP_REASON, () => {
  const { t, origin, openTab, signIn, expectAccessible } = useDashboard(
    PORT,
    { ADMIN_SECRET },
    executablePath as string,
  );

  /** When the user's connection to `name` took its status, as the browser formats it in `language`. */
  async function statusDate(page: Page, userToken: string, name: string, language: string): Promise<string> {
    const answer = await t.call('GET', `/api/v1/me/providers/${name}`, { token: userToken });
    const changed = answer.json<{ status_changed_at: string }>().status_changed_at;
    return page.evaluate(
      ([locale, time]) =>
        new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(time)),
      [language, changed] as const,
    );
  }

  /** The provider's view of its connection with the user (docs/api.md, providers). */
  async function providerSees(providerToken: string, userId: number): Promise<number | string> {
    const answer = await t.call('GET', `/api/v1/providers/${userId}`, { token: providerToken });
    return answer.statusCode === 200 ? answer.json<{ status: string }>().status : answer.statusCode;
  }

  for (const viewport of VIEWPORTS) {
    for (const language of LANGUAGES) {
      it(`approves then revokes a provider, gets a new API token, signs out (${viewport.name}, ${language.code})`, async () => {
        const shell = await catalog('shell', language.code);
        const conn = await catalog('screens/connections', language.code);
        const account = await catalog('screens/account', language.code);
        const signInStrings = await catalog('screens/sign-in', language.code);
        const user = await adminCreateUser(t);
        const provider = await adminCreateProvider(t);
        const providerToken = provider.api_token as string;
        const name = provider.provider_name;
        const { page, problems } = await openTab(viewport, language.locale);
        await signIn(page, user.api_token, language.code);
        const snap = async (name: string) => {
          const shown =
            (viewport.name === 'desktop' && language.code === 'en') ||
            (viewport.name === 'phone' && language.code === 'fa');
          if (SAVE_SCREENSHOTS && shown) {
            await page.screenshot({
              path: join(ROOT, 'docs', `dashboard-${name}-${viewport.name}-${language.code}.png`),
            });
          }
        };

        // No provider yet: the screen explains what one is.
        await page.goto(`${origin}/app/connections`);
        await page.getByRole('heading', { name: text(conn, 'title') }).waitFor();
        await page.getByText(text(conn, 'empty.body')).waitFor();
        await expectAccessible(page, 'connections (empty)');

        // The provider asks; after a reload the request is listed as pending, and approving it lets the provider in.
        const asked = await t.call('POST', `/api/v1/providers/${user.user_id}`, { token: providerToken });
        expect(asked.statusCode, asked.body).toBe(201);
        await page.reload();
        await page.getByRole('heading', { name }).waitFor();
        await page.getByText(text(conn, 'status.pending'), { exact: true }).waitFor();
        const askedAt = await statusDate(page, user.api_token, name, language.code);
        await page.getByText(text(conn, 'askedAt', { date: askedAt })).waitFor();
        await expectAccessible(page, 'connections (pending)');
        await snap('connections');
        await page.getByRole('button', { name: text(conn, 'approveName', { name }) }).click();
        await page.getByText(text(conn, 'status.approved'), { exact: true }).waitFor();
        expect(await providerSees(providerToken, user.user_id)).toBe('approved');
        const approvedAt = await statusDate(page, user.api_token, name, language.code);
        await page.getByText(text(conn, 'approvedAt', { date: approvedAt })).waitFor();
        await expectAccessible(page, 'connections (approved)');

        // Revoking asks first; cancelling changes nothing, confirming ends the connection.
        await page.getByRole('button', { name: text(conn, 'revokeName', { name }) }).click();
        const dialog = page.getByRole('dialog', { name: text(conn, 'confirm.title', { name }) });
        await dialog.waitFor();
        await expectAccessible(page, 'revoke dialog');
        await dialog
          .getByRole('button', { name: text(conn, 'confirm.cancel') })
          .first()
          .click();
        await dialog.waitFor({ state: 'hidden' });
        expect(await providerSees(providerToken, user.user_id)).toBe('approved');
        await page.getByRole('button', { name: text(conn, 'revokeName', { name }) }).click();
        await dialog.getByRole('button', { name: text(conn, 'confirm.revoke') }).click();
        await page.getByText(text(conn, 'empty.body')).waitFor();
        expect(await providerSees(providerToken, user.user_id)).toBe('revoked');

        // Account, reached through the navigation (behind the menu on phones).
        if (viewport.width < 768) await page.getByRole('button', { name: text(shell, 'nav.toggle') }).click();
        const nav = page.getByRole('navigation', { name: text(shell, 'nav.label') });
        await nav.getByRole('link', { name: text(shell, 'nav.account') }).click();
        await page.getByRole('heading', { name: text(account, 'title'), level: 2 }).waitFor();
        await page.getByText(String(user.user_id), { exact: true }).waitFor();
        await expectAccessible(page, 'account');

        // A new token: confirmed first, shown once with a warning, copyable; the old one is refused at once.
        await page.getByRole('button', { name: text(account, 'token.refresh') }).click();
        const confirm = page.getByRole('dialog', { name: text(account, 'confirm.title') });
        // axe judges the dialog once it is open with its name, not while it mounts.
        await confirm.waitFor();
        await expectAccessible(page, 'refresh dialog');
        await confirm.getByRole('button', { name: text(account, 'confirm.refresh') }).click();
        await page.getByText(text(account, 'token.warning')).waitFor();
        const shownToken =
          (await page.getByLabel(text(account, 'token.newTitle'), { exact: true }).textContent()) ?? '';
        expect(shownToken).toMatch(/^\S{20,}$/);
        expect(shownToken).not.toBe(user.api_token);
        await expectAccessible(page, 'account (new token)');
        await snap('account');
        await page.getByRole('button', { name: text(account, 'token.copy') }).click();
        expect(await page.evaluate('navigator.clipboard.readText()')).toBe(shownToken);
        expect((await t.call('GET', '/api/v1/me', { token: user.api_token })).statusCode).toBe(401);
        expect((await t.call('GET', '/api/v1/me', { token: shownToken })).statusCode).toBe(200);

        // This browser stays signed in (the answer set a new session cookie), and the token is not shown again.
        expect(await page.evaluate<number>(`fetch('/api/v1/session').then((r) => r.status)`)).toBe(200);
        await page.reload();
        await page.getByRole('heading', { name: text(account, 'title'), level: 2 }).waitFor();
        expect(await page.getByText(shownToken).count()).toBe(0);

        // Dark theme: the account and connections screens stay readable.
        await page.getByRole('button', { name: text(shell, 'colorScheme.toDark') }).click();
        expect(await page.evaluate('document.documentElement.dataset.mantineColorScheme')).toBe('dark');
        await expectAccessible(page, 'account (dark)');
        await page.goto(`${origin}/app/connections`);
        await page.getByText(text(conn, 'empty.body')).waitFor();
        await expectAccessible(page, 'connections (dark)');

        // Sign out from the account screen: the session is gone.
        await page.goto(`${origin}/app/account`);
        await page.getByRole('button', { name: text(account, 'signOut.button') }).click();
        await page.getByRole('heading', { name: text(signInStrings, 'title') }).waitFor();
        expect(await page.evaluate<number>(`fetch('/api/v1/session').then((r) => r.status)`)).toBe(401);

        expect(problems).toEqual([]);
      }, 120_000);
    }
  }

  /** Presses Tab until the focused element's aria-label or text is `label`; fails after 40 presses. */
  async function tabTo(page: Page, label: string): Promise<void> {
    for (let press = 0; press < 40; press++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate<string>(
        `(document.activeElement?.getAttribute('aria-label') || document.activeElement?.textContent || '').trim()`,
      );
      if (focused === label) return;
    }
    throw new Error(`Tab never reached ${label}`);
  }

  it('works with the keyboard alone: approve, revoke with its confirmation, new token', async () => {
    const user = await adminCreateUser(t);
    const provider = await adminCreateProvider(t);
    const name = provider.provider_name;
    const asked = await t.call('POST', `/api/v1/providers/${user.user_id}`, { token: provider.api_token as string });
    expect(asked.statusCode, asked.body).toBe(201);
    const { page, problems } = await openTab({ width: 1280, height: 800 }, 'en-US');
    await signIn(page, user.api_token, 'en');
    await page.goto(`${origin}/app/connections`);
    await page.getByRole('heading', { name }).waitFor();

    await tabTo(page, `Approve ${name}`);
    await page.keyboard.press('Enter');
    await page.getByText('Approved', { exact: true }).waitFor();
    await tabTo(page, `Revoke ${name}`);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await tabTo(page, 'Revoke');
    await page.keyboard.press('Enter');
    await page.getByText('No providers').waitFor();
    expect(await providerSees(provider.api_token as string, user.user_id)).toBe('revoked');

    await page.goto(`${origin}/app/account`);
    await page.getByRole('heading', { name: 'Account', level: 2 }).waitFor();
    await tabTo(page, 'Get a new API token');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    // Escape closes the confirmation without changing anything.
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    expect((await t.call('GET', '/api/v1/me', { token: user.api_token })).statusCode).toBe(200);
    await tabTo(page, 'Get a new API token');
    await page.keyboard.press('Enter');
    await tabTo(page, 'Get a new token');
    await page.keyboard.press('Enter');
    await tabTo(page, 'Copy token');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    expect((await t.call('GET', '/api/v1/me', { token: copied })).statusCode).toBe(200);
    expect((await t.call('GET', '/api/v1/me', { token: user.api_token })).statusCode).toBe(401);
    expect(problems).toEqual([]);
  }, 120_000);

  it('rejects a request, and explains an approve that came too late', async () => {
    const conn = await catalog('screens/connections', 'en');
    const user = await adminCreateUser(t);
    const first = await adminCreateProvider(t);
    const second = await adminCreateProvider(t);
    for (const provider of [first, second]) {
      const asked = await t.call('POST', `/api/v1/providers/${user.user_id}`, { token: provider.api_token as string });
      expect(asked.statusCode, asked.body).toBe(201);
    }
    const { page, problems } = await openTab({ width: 1280, height: 800 }, 'en-US');
    await signIn(page, user.api_token, 'en');
    await page.goto(`${origin}/app/connections`);
    await page.getByRole('heading', { name: second.provider_name }).waitFor();

    // Rejecting takes the request off the list; the provider no longer has one.
    await page.getByRole('button', { name: text(conn, 'rejectName', { name: first.provider_name }) }).click();
    await page.getByRole('heading', { name: first.provider_name }).waitFor({ state: 'detached' });
    expect(await providerSees(first.api_token as string, user.user_id)).toBe(404);

    // The second provider withdraws its request while the page still shows it: approving is refused and explained.
    const withdrawn = await t.call('DELETE', `/api/v1/providers/${user.user_id}`, {
      token: second.api_token as string,
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    await page.getByRole('button', { name: text(conn, 'approveName', { name: second.provider_name }) }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: text(conn, 'errors.connection_not_pending') })
      .waitFor();
    await page.getByText(text(conn, 'empty.body')).waitFor();
    expect(await providerSees(second.api_token as string, user.user_id)).toBe('revoked');
    await expectAccessible(page, 'connections (refused approve)');
    // Chromium logs the refused answer itself as a console error; nothing else may appear.
    expect(problems.filter((problem) => !problem.includes('status of 409'))).toEqual([]);
  }, 120_000);
});
