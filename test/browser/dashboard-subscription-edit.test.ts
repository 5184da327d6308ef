// A subscription's link, what each app receives, its settings, rotation and deletion, and the list's source health,
// in headless Chromium against the built app on SQLite: every change checked through the API, at 1280 and 360 px, in
// English and Persian, light and dark, with axe-core and no CSP violation, console error or outside request.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { encode } from 'uqr';
import { findChromium } from '../support/chromium.js';
import { catalog, text, useDashboard, type Strings } from '../support/dashboard-browser.js';
import { adminCreateUser, ssUri, vlessUri } from '../support/factories.js';
import { text as upstreamText, useUpstream } from '../support/upstream-server.js';
import { freePort } from '../../scripts/support/private-services.js';

const executablePath = findChromium();
const SKIP_REASON =
  'dashboard subscription-edit browser tests skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)';
if (!executablePath) console.warn(SKIP_REASON);

const ROOT = join(import.meta.dirname, '../..');
const ADMIN_SECRET = 'dashboard-subscription-edit-admin-of-at-least-32-characters';
/** DASHBOARD_SCREENSHOTS=1 rewrites the screenshots under docs/ that docs/dashboard.md shows. */
const SAVE_SCREENSHOTS = process.env['DASHBOARD_SCREENSHOTS'] === '1';
const GB = 1024 ** 3;

const CASES = [
  { viewport: { name: 'desktop', width: 1280, height: 800 }, language: { code: 'en', locale: 'en-US', dir: 'ltr' } },
  { viewport: { name: 'phone', width: 360, height: 740 }, language: { code: 'fa', locale: 'fa-IR', dir: 'rtl' } },
] as const;

const PORT = await freePort();

interface Sub {
  token: string;
  link: string;
  links: Record<string, string>;
  name: string;
  description: string | null;
  update_interval_hours: number;
  support_url: string | null;
  web_page_url: string | null;
  announce: string | null;
  userinfo: Record<string, unknown>;
}

const escapeRegExp = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

(executablePath ? describe : describe.skip)(executablePath ? 'subscription editing in Chromium' : SKIP_REASON, () => {
  const upstream = useUpstream();
  const { t, origin, openTab, signIn, expectAccessible } = useDashboard(
    PORT,
    { ADMIN_SECRET, FETCH_ALLOW_PRIVATE: 'true' },
    executablePath as string,
  );

  async function userApi(token: string, method: string, path: string, body?: unknown): Promise<Response> {
    return fetch(`${origin}/api/v1${path}`, {
      method,
      headers: { 'API-Token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }
  async function readSub(apiToken: string, token: string): Promise<Sub> {
    const res = await userApi(apiToken, 'GET', `/subs/${token}`);
    expect(res.status).toBe(200);
    return (await res.json()) as Sub;
  }
  async function clickByKeyboard(page: Page, target: Locator): Promise<void> {
    for (let press = 0; press < 200; press++) {
      if (await target.evaluate((element) => element === element.ownerDocument.activeElement)) {
        await page.keyboard.press('Enter');
        return;
      }
      await page.keyboard.press('Tab');
    }
    throw new Error('Tab never reached the element');
  }
  function snapper(page: Page, viewport: string, language: string) {
    return async (name: string, top?: Locator) => {
      // docs/dashboard.md shows the desktop in English and the phone in Persian.
      if (SAVE_SCREENSHOTS && (viewport === 'desktop') === (language === 'en')) {
        // To the section's heading, below the fixed header.
        await top?.evaluate((element) =>
          element.ownerDocument.defaultView?.scrollBy(0, element.getBoundingClientRect().top - 72),
        );
        await page.screenshot({ path: join(ROOT, 'docs', `dashboard-${name}-${viewport}-${language}.png`) });
      }
    };
  }

  /**
   * A user with "Family VPN" (two servers) and "Work" (a server and a subscription URL whose fetch fails; the settings
   * test takes its name).
   */
  async function userWithSubscriptions(): Promise<{ apiToken: string; sub: Sub }> {
    const { api_token: apiToken } = (await adminCreateUser(t)) as unknown as { api_token: string };
    const failing = upstream.current.add(upstreamText('upstream down', 500));
    const created = await userApi(apiToken, 'POST', '/subs', {
      name: 'Family VPN',
      sources: [`${vlessUri()}#Amsterdam`, `${ssUri()}#Helsinki`],
    });
    expect(created.status).toBe(201);
    const sub = (await created.json()) as Sub;
    const other = await userApi(apiToken, 'POST', '/subs', { name: 'Work', sources: [vlessUri(), failing] });
    expect(other.status).toBe(201);
    const { token } = (await other.json()) as Sub;
    expect((await userApi(apiToken, 'POST', `/subs/${token}/refresh`, {})).status).toBe(200);
    return { apiToken, sub };
  }

  async function openDetail(page: Page, subs: Strings, name: string): Promise<void> {
    await page.getByRole('link', { name: text(subs, 'list.open', { name }) }).click();
    await page.getByRole('heading', { name, level: 2 }).waitFor();
  }

  for (const { viewport, language } of CASES) {
    it(`shows health, the link, its QR code and what each app receives (${viewport.name}, ${language.code})`, async () => {
      const subs = await catalog('screens/subscriptions', language.code);
      const link = await catalog('screens/subscriptions/link', language.code);
      const { apiToken, sub } = await userWithSubscriptions();
      const { page, problems } = await openTab(viewport, language.locale);
      page.setDefaultTimeout(30_000);
      const snap = snapper(page, viewport.name, language.code);
      const number = (n: number) => new Intl.NumberFormat(language.code).format(n);

      // The list: servers served and the failing subscription URL, on a card that fits the phone.
      await signIn(page, apiToken, language.code);
      expect(await page.evaluate('document.documentElement.dir')).toBe(language.dir);
      const card = page.getByRole('listitem').filter({ hasText: 'Family VPN' });
      await card.getByText(text(subs, 'list.servers', { count: number(2) })).waitFor();
      await card.getByText(text(subs, 'list.sources', { count: number(2) })).waitFor();
      const work = page.getByRole('listitem').filter({ hasText: 'Work' });
      await work.getByText(text(subs, 'list.failing', { count: number(1) })).waitFor();
      await work.getByText(text(subs, 'list.servers', { count: number(1) })).waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
      await expectAccessible(page, 'subscriptions with health');
      await snap('subscriptions-health');

      // The QR code holds exactly the link: its dark squares are the modules the encoder gives for it.
      await openDetail(page, subs, 'Family VPN');
      const qr = page.getByRole('img', { name: text(link, 'qr') });
      const drawn = await qr.evaluate((svg) => ({
        border: Number(svg.getAttribute('data-qr-border')),
        path: svg.querySelector('path')?.getAttribute('d') ?? '',
      }));
      const expected = encode(sub.link, { ecc: 'M', border: drawn.border }).data;
      const dark = new Set([...drawn.path.matchAll(/M(\d+) (\d+)/g)].map((m) => `${m[1]},${m[2]}`));
      const wanted = new Set(expected.flatMap((row, y) => row.flatMap((on, x) => (on ? [`${x},${y}`] : []))));
      expect(dark.size).toBeGreaterThan(100);
      expect(dark).toEqual(wanted);

      // Each format's link copies to the clipboard as the API gives it.
      for (const format of ['mihomo', 'sing-box'] as const) {
        await page.getByRole('button', { name: text(link, 'formats.copy', { format }) }).click();
        await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toBe(sub.links[format]);
      }
      expect((await fetch(sub.links['mihomo'] as string)).headers.get('subweave-format')).toBe('mihomo');

      // What an old Clash for Windows gets: the classic document without the VLESS server, as the API's preview says.
      await page.getByLabel(text(link, 'preview.app'), { exact: true }).selectOption({ label: 'Clash for Windows' });
      await page.getByText(text(link, 'preview.format', { format: 'clash-classic' })).waitFor();
      const preview = await userApi(
        apiToken,
        'GET',
        `/subs/${sub.token}/preview?user_agent=${encodeURIComponent('ClashforWindows/0.20.39')}`,
      );
      const answer = (await preview.json()) as { served: number; rule: string; body: string };
      expect(answer.served).toBe(1);
      await page.getByText(text(link, 'preview.served', { count: number(1) })).waitFor();
      await page.getByText(text(link, 'preview.rule', { rule: answer.rule })).waitFor();
      const servers = page.getByRole('list', { name: text(link, 'preview.servers'), exact: true });
      await servers.getByText('Amsterdam').waitFor();
      const reason = text(link, 'preview.skipReasons.unsupported_by_client');
      await servers.getByText(text(link, 'preview.skipped', { reason })).waitFor();
      await page.getByText(answer.body.slice(0, 40), { exact: false }).first().waitFor();

      // A User-Agent typed in: v2rayN's rule is off by default, so it gets the default format.
      await page.getByLabel(text(link, 'preview.app'), { exact: true }).selectOption(text(link, 'preview.custom'));
      await page.getByLabel(text(link, 'preview.userAgent'), { exact: true }).fill('v2rayN/7.13.2');
      await page.getByRole('button', { name: text(link, 'preview.show'), exact: true }).click();
      await page.getByText(text(link, 'preview.rule', { rule: 'default' })).waitFor();
      await page.getByText(text(link, 'preview.format', { format: 'base64' })).waitFor();

      // Hiddify gets the base64 list with both servers.
      await page.getByLabel(text(link, 'preview.app'), { exact: true }).selectOption({ label: 'Hiddify' });
      await page.getByText(text(link, 'preview.format', { format: 'base64' })).waitFor();
      await page.getByText(text(link, 'preview.served', { count: number(2) })).waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
      await expectAccessible(page, 'subscription link and preview');
      await snap('subscription-link', page.getByRole('heading', { name: text(subs, 'detail.link') }));

      await page
        .getByRole('button', { name: /dark|تیره|тёмн|深色/i })
        .first()
        .click();
      expect(await page.evaluate('document.documentElement.dataset.mantineColorScheme')).toBe('dark');
      await expectAccessible(page, 'subscription link and preview (dark)');
      await snap('subscription-preview-dark', page.getByRole('heading', { name: text(link, 'preview.title') }));
      expect(problems).toEqual([]);
    }, 120_000);
  }

  for (const { viewport, language } of CASES) {
    it(`edits every field with the API's errors at the field, then deletes (${viewport.name}, ${language.code})`, async () => {
      const subs = await catalog('screens/subscriptions', language.code);
      const settings = await catalog('screens/subscriptions/settings', language.code);
      const { apiToken, sub } = await userWithSubscriptions();
      const { page, problems } = await openTab(viewport, language.locale);
      page.setDefaultTimeout(30_000);
      const snap = snapper(page, viewport.name, language.code);
      await signIn(page, apiToken, language.code);
      await openDetail(page, subs, 'Family VPN');
      const form = page.getByRole('form', { name: text(settings, 'title') });
      // Mantine puts " *" after a required field's label.
      const field = (key: string) => form.getByLabel(new RegExp(`^${escapeRegExp(text(settings, key))}( \\*)?$`));
      const save = form.getByRole('button', { name: text(settings, 'save') });

      // A bad support URL: the API refuses it and the field reads as invalid, in the user's language, never with
      // the schema validator's English ("must be an absolute http or https URL").
      await field('supportUrl').fill('not a link');
      await save.click();
      const refused = await userApi(apiToken, 'PATCH', `/subs/${sub.token}`, { support_url: 'not a link' });
      expect(refused.status).toBe(400);
      const issues = ((await refused.json()) as { details: { issues: { path: string; message: string }[] } }).details
        .issues;
      const message = issues.find((issue) => issue.path === 'body.support_url')?.message ?? 'none';
      await expect.poll(() => field('supportUrl').getAttribute('aria-invalid')).toBe('true');
      await form.getByText(text(settings, 'refused')).waitFor();
      expect(await form.getByText(message).count()).toBe(0);

      // A name another subscription holds: 409 name_exists, shown at the name field in the user's language.
      await field('supportUrl').fill('');
      await field('name').fill('Work');
      await save.click();
      await form.getByText(text(subs, 'errors.name_exists')).waitFor();
      expect(await field('name').getAttribute('aria-invalid')).toBe('true');
      await expectAccessible(page, 'settings with errors');
      const shell = await catalog('shell', language.code);
      await page.getByRole('button', { name: text(shell, 'colorScheme.toDark') }).click();
      await expectAccessible(page, 'settings with errors (dark)');
      await page.getByRole('button', { name: text(shell, 'colorScheme.toLight') }).click();

      // Every field, saved: the API stores exactly what was typed (GB in bytes, the day's end in UTC).
      await field('name').fill('Family VPN 2');
      await field('description').fill('Phones at home');
      await field('interval').fill('12');
      await field('supportUrl').fill('https://help.example.com/vpn');
      await field('webPageUrl').fill('https://example.com/');
      await field('announce').fill('Maintenance on Sunday');
      await form.getByLabel(text(settings, 'usage.label')).selectOption('fixed');
      await field('usage.download').fill('1.5');
      await field('usage.total').fill('50');
      await field('usage.expire').fill('2030-01-31');
      await save.click();
      await form.getByText(text(settings, 'saved')).waitFor();
      const stored = await readSub(apiToken, sub.token);
      expect(stored).toMatchObject({
        name: 'Family VPN 2',
        description: 'Phones at home',
        update_interval_hours: 12,
        support_url: 'https://help.example.com/vpn',
        web_page_url: 'https://example.com/',
        announce: 'Maintenance on Sunday',
        userinfo: {
          mode: 'fixed',
          upload: 0,
          download: 1.5 * GB,
          total: 50 * GB,
          expire: Date.UTC(2030, 0, 31) / 1000 + 86_399,
        },
      });
      const served = await fetch(sub.link);
      expect(served.headers.get('profile-update-interval')).toBe('12');
      expect(served.headers.get('subscription-userinfo')).toContain(`total=${50 * GB}`);
      await page.getByRole('heading', { name: 'Family VPN 2', level: 2 }).waitFor();

      // Saving again without a change sends nothing.
      await save.click();
      await form.getByText(text(settings, 'unchanged')).waitFor();
      expect((await readSub(apiToken, sub.token)).name).toBe('Family VPN 2');
      await expectAccessible(page, 'settings saved');
      await snap('subscription-settings', page.getByRole('heading', { name: text(settings, 'title') }));

      // Delete, confirmed: back to the list, the subscription and its link gone.
      await page.getByRole('button', { name: text(settings, 'delete.button') }).click();
      const dialog = page.getByRole('dialog', { name: text(settings, 'delete.title', { name: 'Family VPN 2' }) });
      await dialog.getByText(text(settings, 'delete.body')).waitFor();
      await expectAccessible(page, 'delete dialog');
      await dialog.getByRole('button', { name: text(settings, 'delete.confirm'), exact: true }).click();
      await page.getByRole('heading', { name: text(subs, 'list.title') }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/app/subs');
      expect((await userApi(apiToken, 'GET', `/subs/${sub.token}`)).status).toBe(404);
      expect((await fetch(sub.link)).status).toBe(404);
      await page.getByRole('listitem').filter({ hasText: 'Work' }).waitFor();
      expect(await page.getByRole('listitem').filter({ hasText: 'Family VPN' }).count()).toBe(0);
      // Chromium logs the two refusals this test asked for, and nothing else.
      expect(problems).toEqual([
        'console: Failed to load resource: the server responded with a status of 400 (Bad Request)',
        'console: Failed to load resource: the server responded with a status of 409 (Conflict)',
      ]);
    }, 120_000);
  }

  for (const { viewport, language } of CASES) {
    it(`rotates the link by keyboard alone after a confirmation (${viewport.name}, ${language.code})`, async () => {
      const subs = await catalog('screens/subscriptions', language.code);
      const link = await catalog('screens/subscriptions/link', language.code);
      const { apiToken, sub } = await userWithSubscriptions();
      const { page, problems } = await openTab(viewport, language.locale);
      page.setDefaultTimeout(30_000);
      await signIn(page, apiToken, language.code);
      await openDetail(page, subs, 'Family VPN');

      await clickByKeyboard(page, page.getByRole('button', { name: text(link, 'rotate.button') }));
      const dialog = page.getByRole('dialog', { name: text(link, 'rotate.title') });
      await dialog.getByText(text(link, 'rotate.body')).waitFor();
      await expectAccessible(page, 'rotate dialog');
      await clickByKeyboard(page, dialog.getByRole('button', { name: text(link, 'rotate.confirm'), exact: true }));

      await page.getByText(text(link, 'rotate.done')).waitFor();
      const token = new URL(page.url()).pathname.split('/').pop() ?? '';
      expect(token).not.toBe(sub.token);
      const rotated = await readSub(apiToken, token);
      expect(rotated.name).toBe('Family VPN');
      await page.getByText(rotated.link, { exact: true }).waitFor();
      expect((await fetch(sub.link)).status).toBe(404);
      expect((await fetch(rotated.link)).status).toBe(200);
      expect((await userApi(apiToken, 'GET', `/subs/${sub.token}`)).status).toBe(404);
      expect(await page.getByRole('dialog').count()).toBe(0);

      // The list opens the subscription under its new link.
      await page.getByRole('link', { name: text(subs, 'detail.back') }).click();
      await page.getByRole('link', { name: text(subs, 'list.open', { name: 'Family VPN' }) }).click();
      await page.getByText(rotated.link, { exact: true }).waitFor();
      expect(problems).toEqual([]);
    }, 120_000);
  }
});
