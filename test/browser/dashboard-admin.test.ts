// The admin console in headless Chromium against the built app on SQLite: the secret gate (wrong and right secret,
// reload, forget), the secret never on the wire, users (create with the token shown once, a sign-in link used in
// another browser, disable, delete), providers and connections, at 1280 and 360 px, English and Persian, light and
// dark, with axe-core, no CSP violation or console error, and a keyboard-only run.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page, Request } from 'playwright-core';
import { freePort } from '../../scripts/support/private-services.js';
import { findChromium } from '../support/chromium.js';
import {
  catalog,
  count,
  digits,
  LANGUAGES,
  text,
  useDashboard,
  VIEWPORTS,
  type Strings,
} from '../support/dashboard-browser.js';
import { adminCreateUser, freshUserId, uniqueProviderName } from '../support/factories.js';
import { TOKEN_RE } from '../support/expect.js';

const executablePath = findChromium();
const SKIP_REASON =
  'dashboard admin browser tests skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)';
if (!executablePath) console.warn(SKIP_REASON);

const ROOT = join(import.meta.dirname, '../..');
const ADMIN_SECRET = 'dashboard-admin-console-secret-of-at-least-32-characters';
/** DASHBOARD_SCREENSHOTS=1 rewrites the screenshots under docs/ that docs/dashboard.md shows. */
const SAVE_SCREENSHOTS = process.env['DASHBOARD_SCREENSHOTS'] === '1';
const PORT = await freePort();

const [DESKTOP, PHONE] = VIEWPORTS;
const [EN, FA] = LANGUAGES;
const CASES = [
  { viewport: DESKTOP, language: EN },
  { viewport: PHONE, language: FA },
] as const;

interface Catalogs {
  shell: Strings;
  admin: Strings;
  users: Strings;
  providers: Strings;
  connections: Strings;
}

async function catalogs(language: string): Promise<Catalogs> {
  return {
    shell: await catalog('shell', language),
    admin: await catalog('admin', language),
    users: await catalog('admin/screens/users', language),
    providers: await catalog('admin/screens/providers', language),
    connections: await catalog('admin/screens/connections', language),
  };
}

/** Every request of a page checked for the admin secret in its URL, headers (all of them) or body. */
function watchForSecret(page: Page): () => Promise<string[]> {
  const checks: Promise<string | null>[] = [];
  page.on('request', (request: Request) => {
    checks.push(
      request.allHeaders().then((headers) => {
        const carried = [request.url(), JSON.stringify(headers), request.postData() ?? ''].join('\n');
        return carried.includes(ADMIN_SECRET) ? `${request.method()} ${request.url()}` : null;
      }),
    );
  });
  return async () => (await Promise.all(checks)).filter((leak): leak is string => leak !== null);
}

(executablePath ? describe : describe.skip)(executablePath ? 'admin console in Chromium' : SKIP_REASON, () => {
  const { t, origin, openTab, expectAccessible } = useDashboard(PORT, { ADMIN_SECRET }, executablePath as string);

  /** `only` names the one viewport whose picture docs/dashboard.md shows, when it shows only one. */
  const snapper =
    (page: Page, viewport: { name: string }, language: { code: string }) =>
    async (name: string, only?: 'desktop' | 'phone') => {
      // docs/dashboard.md shows the desktop in English and the phone in Persian.
      if (
        SAVE_SCREENSHOTS &&
        (viewport.name === 'desktop') === (language.code === 'en') &&
        (only ?? viewport.name) === viewport.name
      ) {
        await page.screenshot({
          path: join(ROOT, 'docs', `dashboard-admin-${name}-${viewport.name}-${language.code}.png`),
        });
      }
    };

  async function openConsole(page: Page, s: Catalogs): Promise<void> {
    await page.goto(`${origin}/app/admin`);
    const field = page.getByLabel(text(s.admin, 'gate.secret'), { exact: true });
    await field.fill(ADMIN_SECRET);
    await field.press('Enter');
    await page.waitForURL(`${origin}/app/admin/stats`);
    await page.getByRole('navigation', { name: text(s.admin, 'nav.label') }).waitFor();
  }

  /** A user's card, by its heading: the id in the language's digits. */
  const userCard = (page: Page, s: Catalogs, language: string, userId: number): Locator =>
    page.getByRole('listitem').filter({
      has: page.getByRole('heading', {
        name: text(s.users, 'list.user', { id: digits(language, userId) }),
        exact: true,
      }),
    });

  const fitsWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');

  for (const { viewport, language } of CASES) {
    it(`gate: refuses a wrong secret, opens with the right one, survives a reload, forgets (${viewport.name}, ${language.code})`, async () => {
      const s = await catalogs(language.code);
      const { page, problems } = await openTab(viewport, language.locale);
      const leaks = watchForSecret(page);
      const snap = snapper(page, viewport, language);

      await page.goto(`${origin}/app/admin`);
      expect(await page.evaluate('document.documentElement.dir')).toBe(language.dir);
      const field = page.getByLabel(text(s.admin, 'gate.secret'), { exact: true });
      await field.fill('not-the-admin-secret-but-long-enough-to-look-real');
      await page.getByRole('button', { name: text(s.admin, 'gate.submit') }).click();
      await page.getByText(text(s.admin, 'gate.errors.invalid_signature')).waitFor();
      expect(await page.evaluate('sessionStorage.length')).toBe(0);
      await expectAccessible(page, 'admin gate with an error');
      await snap('gate', 'phone');
      await page.getByRole('button', { name: text(s.shell, 'colorScheme.toDark') }).click();
      await expectAccessible(page, 'admin gate with an error (dark)');

      await field.fill(ADMIN_SECRET);
      await field.press('Enter');
      await page.waitForURL(`${origin}/app/admin/stats`);
      const nav = page.getByRole('navigation', { name: text(s.admin, 'nav.label') });
      await nav.waitFor();

      // The tab keeps the console across a reload; the secret lives in this tab's sessionStorage only.
      await page.reload();
      await nav.waitFor();
      expect(await page.evaluate('JSON.stringify(sessionStorage)')).toContain(ADMIN_SECRET);
      expect(await page.evaluate('JSON.stringify(localStorage)')).not.toContain(ADMIN_SECRET);
      expect(await page.evaluate('document.cookie')).not.toContain(ADMIN_SECRET);
      await nav.getByRole('link', { name: text(s.admin, 'nav.users') }).click();
      await page.getByRole('heading', { name: text(s.users, 'title'), exact: true }).waitFor();
      expect(await fitsWidth(page)).toBe(true);
      // Each navigation label whole: Mantine's Group once squeezed them to a ninth of a phone's width ("St", "U").
      const clipped = await nav
        .getByRole('link')
        .evaluateAll((links) =>
          links
            .filter((link) => [link, ...link.querySelectorAll('*')].some((box) => box.scrollWidth > box.clientWidth))
            .map((link) => link.textContent),
        );
      expect(clipped).toEqual([]);

      // A way back to the user area (here its sign-in screen); the console keeps its secret meanwhile.
      await page.getByRole('link', { name: text(s.admin, 'backToApp') }).click();
      await page.waitForURL(`${origin}/app/sign-in`);
      await page.goBack();
      await nav.waitFor();

      await page.getByRole('button', { name: text(s.admin, 'leave') }).click();
      await field.waitFor();
      expect(await page.evaluate('sessionStorage.length')).toBe(0);
      await page.reload();
      await field.waitFor();
      expect(await nav.count()).toBe(0);

      expect(await leaks()).toEqual([]);
      expect(problems).toEqual([]);
    }, 120_000);

    it(`users: create with the token shown once, a sign-in link used elsewhere, disable, delete (${viewport.name}, ${language.code})`, async () => {
      const s = await catalogs(language.code);
      const { page, problems } = await openTab(viewport, language.locale);
      const leaks = watchForSecret(page);
      const snap = snapper(page, viewport, language);
      const userId = freshUserId();

      await openConsole(page, s);
      await page.getByRole('link', { name: text(s.admin, 'nav.users') }).click();
      await page.getByLabel(text(s.users, 'create.id'), { exact: true }).fill(String(userId));
      await page.getByRole('button', { name: text(s.users, 'create.submit') }).click();

      // The token: shown once with its warning, copyable, gone when dismissed; it works for the user's API.
      const secret = page.getByLabel(text(s.users, 'shown.tokenTitle', { id: digits(language.code, userId) }), {
        exact: true,
      });
      const token = ((await secret.textContent()) ?? '').trim();
      expect(token).toMatch(TOKEN_RE);
      expect(await secret.evaluate((element) => element.getAttribute('dir'))).toBe('ltr');
      await page.getByText(text(s.users, 'shown.tokenWarning')).waitFor();
      expect((await t.call('GET', '/api/v1/subs', { token })).statusCode).toBe(200);
      await page.getByRole('button', { name: text(s.users, 'shown.copy') }).click();
      await page.getByRole('button', { name: text(s.users, 'shown.copied') }).waitFor();
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(token);
      await expectAccessible(page, 'users with a new token');
      await snap('users-token', 'phone');
      await page.getByRole('button', { name: text(s.users, 'shown.done') }).click();
      expect(await page.content()).not.toContain(token);

      // The list: found by id, active, no subscription yet.
      // Typed in the language's digits (Persian ones in Persian): the search takes them as the id.
      await page.getByLabel(text(s.users, 'filter.search'), { exact: true }).fill(digits(language.code, userId));
      const card = userCard(page, s, language.code, userId);
      await card.getByText(text(s.users, 'list.subscriptions', { count: count(language.code, 0) })).waitFor();
      await card.getByText(text(s.users, 'list.active'), { exact: true }).waitFor();

      // A sign-in link, used in another browser, lands there signed in as this user.
      await card.getByRole('button', { name: text(s.users, 'actions.link') }).click();
      await page.getByText(text(s.users, 'shown.linkWarning')).waitFor();
      const link = page.getByLabel(text(s.users, 'shown.linkTitle', { id: digits(language.code, userId) }), {
        exact: true,
      });
      const url = ((await link.textContent()) ?? '').trim();
      expect(url.startsWith(`${origin}/app/sign-in#code=`)).toBe(true);
      expect(await fitsWidth(page)).toBe(true);
      await expectAccessible(page, 'users with a sign-in link');
      await snap('users-link', 'desktop');
      const other = await openTab(viewport, language.locale);
      await other.page.goto(url);
      await other.page.waitForURL(`${origin}/app/subs`);
      const session = await other.page.evaluate("fetch('/api/v1/session').then((answer) => answer.json())");
      expect(session).toMatchObject({ user_id: userId });
      expect(other.problems).toEqual([]);
      await page.getByRole('button', { name: text(s.users, 'shown.done') }).click();

      // Disable: the badge changes and the API agrees; then delete, confirmed.
      await card.getByRole('button', { name: text(s.users, 'actions.disable') }).click();
      await card.getByText(text(s.users, 'list.disabled'), { exact: true }).waitFor();
      expect((await t.admin('GET', `/users/${userId}`)).json()).toMatchObject({ is_active: false });
      expect((await t.call('GET', '/api/v1/subs', { token })).statusCode).toBe(403);

      await page.getByRole('button', { name: text(s.shell, 'colorScheme.toDark') }).click();
      expect(await page.evaluate('document.documentElement.dataset.mantineColorScheme')).toBe('dark');
      await expectAccessible(page, 'users (dark)');
      await snap('users-dark', 'desktop');

      await card.getByRole('button', { name: text(s.users, 'actions.delete') }).click();
      const dialog = page.getByRole('dialog', {
        name: text(s.users, 'confirm.deleteTitle', { id: digits(language.code, userId) }),
      });
      await dialog.getByText(text(s.users, 'confirm.deleteBody')).waitFor();
      await expectAccessible(page, 'delete confirmation (dark)');
      await dialog.getByRole('button', { name: text(s.users, 'confirm.delete'), exact: true }).click();
      await card.waitFor({ state: 'detached' });
      await page.getByText(text(s.users, 'list.empty')).waitFor();
      expect((await t.admin('GET', `/users/${userId}`)).statusCode).toBe(404);

      expect(await leaks()).toEqual([]);
      expect(problems).toEqual([]);
    }, 120_000);

    it(`providers and connections: create a provider, approve its request, delete it (${viewport.name}, ${language.code})`, async () => {
      const s = await catalogs(language.code);
      const { page, problems } = await openTab(viewport, language.locale);
      const leaks = watchForSecret(page);
      const snap = snapper(page, viewport, language);
      const owner = await adminCreateUser(t);
      const customer = await adminCreateUser(t);
      const name = uniqueProviderName();

      await openConsole(page, s);
      await page.getByRole('link', { name: text(s.admin, 'nav.providers') }).click();
      // A bad name is explained before anything is sent.
      await page.getByLabel(text(s.providers, 'create.owner'), { exact: true }).fill(String(owner.user_id));
      await page.getByLabel(text(s.providers, 'create.name'), { exact: true }).fill('Bad Name');
      await page.getByRole('button', { name: text(s.providers, 'create.submit') }).click();
      await page.getByText(text(s.providers, 'create.nameInvalid')).waitFor();
      await page.getByLabel(text(s.providers, 'create.name'), { exact: true }).fill(name);
      await page.getByLabel(text(s.providers, 'create.url'), { exact: true }).fill(`https://${name}.example.com`);
      await page.getByRole('button', { name: text(s.providers, 'create.submit') }).click();

      const secret = page.getByLabel(text(s.providers, 'shown.title', { name }), { exact: true });
      const token = ((await secret.textContent()) ?? '').trim();
      expect(token).toMatch(TOKEN_RE);
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });
      await card.getByText(text(s.providers, 'list.owner', { id: digits(language.code, owner.user_id) })).waitFor();
      expect(await fitsWidth(page)).toBe(true);
      await expectAccessible(page, 'providers with a new token');
      await snap('providers');
      await page.getByRole('button', { name: text(s.providers, 'shown.done') }).click();

      // The provider, with the token the console showed, asks for the customer; the admin approves for them.
      const asked = await t.call('POST', `/api/v1/providers/${customer.user_id}`, { token });
      expect(asked.statusCode, asked.body).toBe(201);
      await page.getByRole('link', { name: text(s.admin, 'nav.connections') }).click();
      const userField = page.getByLabel(text(s.connections, 'user.label'), { exact: true }).first();
      await userField.fill(String(customer.user_id));
      await userField.press('Enter');
      await page.waitForURL(`${origin}/app/admin/connections?user=${customer.user_id}`);
      const request = page.getByRole('listitem').filter({ hasText: name });
      await request.getByText(text(s.connections, 'status.pending')).waitFor();
      await expectAccessible(page, 'connections with a pending request');
      await snap('connections');
      await request.getByRole('button', { name: text(s.connections, 'actions.approve') }).click();
      await request.getByText(text(s.connections, 'status.approved')).waitFor();
      const seen = await t.call('GET', `/api/v1/providers/${customer.user_id}`, { token });
      expect(seen.json()).toMatchObject({ status: 'approved' });

      await page.getByRole('button', { name: text(s.shell, 'colorScheme.toDark') }).click();
      await expectAccessible(page, 'connections (dark)');
      await page.getByRole('link', { name: text(s.admin, 'nav.providers') }).click();
      await expectAccessible(page, 'providers (dark)');
      await card.getByRole('button', { name: text(s.providers, 'actions.delete') }).click();
      const dialog = page.getByRole('dialog', { name: text(s.providers, 'confirm.deleteTitle', { name }) });
      await dialog.getByRole('button', { name: text(s.providers, 'confirm.delete'), exact: true }).click();
      await card.waitFor({ state: 'detached' });
      expect((await t.admin('GET', `/providers/by-name/${name}`)).statusCode).toBe(404);
      expect((await t.call('GET', `/api/v1/providers/${customer.user_id}`, { token })).statusCode).toBe(401);

      expect(await leaks()).toEqual([]);
      expect(problems).toEqual([]);
    }, 120_000);
  }

  it('shows 50 users, then more on demand, and filters by status', async () => {
    const s = await catalogs('en');
    const { page, problems } = await openTab(DESKTOP, EN.locale);
    for (let i = 0; i < 55; i++) await t.newUser();
    const disabled = await adminCreateUser(t);
    expect((await t.admin('PATCH', `/users/${disabled.user_id}`, { is_active: false })).statusCode).toBe(200);
    const everyone = (await t.admin('GET', '/users?limit=200')).json<{ users: unknown[] }>().users.length;
    expect(everyone).toBeGreaterThan(55);

    await openConsole(page, s);
    await page.getByRole('link', { name: text(s.admin, 'nav.users') }).click();
    const cards = page.getByRole('main').getByRole('listitem');
    const more = page.getByRole('button', { name: text(s.users, 'list.more') });
    await more.waitFor();
    expect(await cards.count()).toBe(50);
    await more.click();
    await more.waitFor({ state: 'detached' });
    expect(await cards.count()).toBe(everyone);

    await page.getByLabel(text(s.users, 'filter.status'), { exact: true }).selectOption('disabled');
    await userCard(page, s, 'en', disabled.user_id).waitFor();
    await page.waitForFunction(`document.querySelectorAll('main li').length < ${everyone}`);
    const badges = await cards.getByText(text(s.users, 'list.disabled'), { exact: true }).count();
    expect(badges).toBe(await cards.count());
    expect(problems).toEqual([]);
  }, 120_000);

  it('works by keyboard alone: open the console, create a user, cancel then confirm a delete', async () => {
    const s = await catalogs('en');
    const { page, problems } = await openTab(DESKTOP, EN.locale);
    const userId = freshUserId();

    /** Presses Tab until `target` has the focus. */
    async function tabTo(target: Locator): Promise<void> {
      for (let press = 0; press < 80; press++) {
        if (await target.evaluate((element) => element === element.ownerDocument.activeElement)) return;
        await page.keyboard.press('Tab');
      }
      throw new Error('Tab never reached the element');
    }

    await page.goto(`${origin}/app/admin`);
    await tabTo(page.getByLabel(text(s.admin, 'gate.secret'), { exact: true }));
    await page.keyboard.type(ADMIN_SECRET);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${origin}/app/admin/stats`);
    await tabTo(page.getByRole('link', { name: text(s.admin, 'nav.users') }));
    await page.keyboard.press('Enter');
    await tabTo(page.getByLabel(text(s.users, 'create.id'), { exact: true }));
    await page.keyboard.type(String(userId));
    await page.keyboard.press('Enter');

    // The new token's heading takes the focus; the copy and done buttons follow it.
    const heading = page.getByText(text(s.users, 'shown.tokenTitle', { id: userId }), { exact: true });
    await heading.waitFor();
    expect(await heading.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
    await tabTo(page.getByRole('button', { name: text(s.users, 'shown.done') }));
    await page.keyboard.press('Enter');
    await heading.waitFor({ state: 'detached' });

    const card = userCard(page, s, 'en', userId);
    const remove = card.getByRole('button', { name: text(s.users, 'actions.delete') });
    await tabTo(remove);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: text(s.users, 'confirm.deleteTitle', { id: userId }) });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await t.admin('GET', `/users/${userId}`)).statusCode).toBe(200);
    await tabTo(remove);
    await page.keyboard.press('Enter');
    await tabTo(dialog.getByRole('button', { name: text(s.users, 'confirm.delete'), exact: true }));
    await page.keyboard.press('Enter');
    await card.waitFor({ state: 'detached' });
    expect((await t.admin('GET', `/users/${userId}`)).statusCode).toBe(404);
    expect(problems).toEqual([]);
  }, 120_000);
});
