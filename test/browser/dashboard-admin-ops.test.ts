// The admin console's statistics, bans and whitelist, and audit log in headless Chromium against the built app on
// SQLite: real users, subscriptions, link fetches and an automatic ban made first; the secret entered at the gate;
// the charts show the numbers the API reports; a ban and a whitelist entry added and removed (checked through the
// API); the audit log filtered. At 1280 and 360 px, in English and Persian, light and dark, and by keyboard alone.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { freePort } from '../../scripts/support/private-services.js';
import { findChromium } from '../support/chromium.js';
import {
  catalog,
  digits,
  LANGUAGES,
  text,
  useDashboard,
  VIEWPORTS,
  type Strings,
} from '../support/dashboard-browser.js';
import { ssUri, vlessUri } from '../support/factories.js';

const chromium = findChromium();
const SKIP_REASON =
  'dashboard admin-ops browser tests skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)';
if (!chromium) console.warn(SKIP_REASON);

const ROOT = join(import.meta.dirname, '../..');
const ADMIN_SECRET = 'dashboard-admin-ops-secret-of-at-least-32-characters';
/** DASHBOARD_SCREENSHOTS=1 rewrites the screenshots under docs/ that docs/dashboard.md shows. */
const SAVE_SCREENSHOTS = process.env['DASHBOARD_SCREENSHOTS'] === '1';
/** An address outside the whitelist that trips the anonymous rate limit until the service bans it. */
const ABUSER = '198.51.100.23';
const PORT = await freePort();

/** Desktop in English and the phone in Persian (the screenshot pair), then the other two. */
const CASES = [
  { viewport: VIEWPORTS[0], language: LANGUAGES[0] },
  { viewport: VIEWPORTS[1], language: LANGUAGES[1] },
  { viewport: VIEWPORTS[0], language: LANGUAGES[1] },
  { viewport: VIEWPORTS[1], language: LANGUAGES[0] },
];

(chromium ? describe : describe.skip)(chromium ? 'admin statistics, bans and audit in Chromium' : SKIP_REASON, () => {
  const { t, origin, openTab, expectAccessible } = useDashboard(
    PORT,
    { ADMIN_SECRET, RATE_LIMIT_ANON_PER_MIN: '2', AUTO_BAN_VIOLATIONS: '2', DEFAULT_BAN_SECONDS: '3600' },
    chromium as string,
  );
  let fetches = 0;

  beforeAll(async () => {
    // The browser and this suite's own calls come from 127.0.0.1: keep them clear of the low rate limit.
    expect(
      (await t.admin('POST', '/whitelist', { ip_address: '127.0.0.1', description: 'the test machine' })).statusCode,
    ).toBe(201);
    // Requests to unknown paths from one address until the service bans it on its own.
    for (let attempt = 0; attempt < 6; attempt++) await t.call('GET', '/no-such-path', { ip: ABUSER });
    expect((await t.admin('GET', `/ban/${ABUSER}`)).json()).toMatchObject({ is_banned: true });
  });

  async function userApi(token: string, method: string, path: string, body?: unknown): Promise<Response> {
    return fetch(`${origin}/api/v1${path}`, {
      method,
      headers: { 'API-Token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  /** A new user with a subscription whose link is fetched twice: two public requests. Answers the user's id. */
  async function userWithFetchedLink(): Promise<number> {
    const userId = 1000 + Math.floor(Math.random() * 1_000_000);
    const created = await t.admin('POST', '/users', { user_id: userId });
    expect(created.statusCode, created.body).toBe(201);
    const apiToken = created.json<{ api_token: string }>().api_token;
    const sub = await userApi(apiToken, 'POST', '/subs', { name: 'Team', sources: [vlessUri(), ssUri()] });
    expect(sub.status).toBe(201);
    const subToken = ((await sub.json()) as { token: string }).token;
    for (let fetch_ = 0; fetch_ < 2; fetch_++) {
      const served = await fetch(`${origin}/sub/${subToken}`);
      expect(served.status).toBe(200);
      await served.arrayBuffer();
      fetches++;
    }
    return userId;
  }

  interface StatsAnswer {
    total_users: number;
    new_users: number;
    new_subscriptions: number;
    requests_by_kind: { public: number };
  }
  const stats = async (query: string): Promise<StatsAnswer> => {
    const res = await t.admin('GET', `/stats${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<StatsAnswer>();
  };

  /** Opens /app/admin and enters the secret at the gate like a person, keyboard only: type, then Enter. */
  async function enterConsole(page: Page, admin: Strings): Promise<void> {
    await page.goto(`${origin}/app/admin`);
    const field = page.getByLabel(text(admin, 'gate.secret'), { exact: true });
    await field.fill(ADMIN_SECRET);
    await field.press('Enter');
  }

  async function openScreen(page: Page, admin: Strings, screen: string): Promise<void> {
    const nav = page.getByRole('navigation', { name: text(admin, 'nav.label') });
    await nav.getByRole('link', { name: text(admin, `nav.${screen}`) }).click();
    // The pointer leaves the link it clicked: axe judges the screen at rest, not the link's hover colours.
    await page.mouse.move(0, 0);
  }

  const noSidewaysScroll = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');

  /** The table a chart shows on "Show the numbers", as rows of cell texts. */
  async function chartTable(page: Page, strings: Strings, title: string): Promise<string[][]> {
    const figure = page.locator('figure').filter({ has: page.getByText(title, { exact: true }) });
    await figure.getByRole('button', { name: text(strings, 'showTable') }).click();
    const rows = figure.getByRole('table').locator('tbody tr');
    await rows.first().waitFor();
    const cells: string[][] = [];
    for (const row of await rows.all())
      cells.push((await row.locator('th, td').allInnerTexts()).map((one) => one.trim()));
    return cells;
  }

  for (const { viewport, language } of CASES) {
    it(`shows statistics, manages bans and the whitelist, and filters the audit log (${viewport.name}, ${language.code})`, async () => {
      const [admin, shell, statsText, bans, audit, words] = await Promise.all([
        catalog('admin', language.code),
        catalog('shell', language.code),
        catalog('admin/screens/stats', language.code),
        catalog('admin/screens/bans', language.code),
        catalog('admin/screens/audit', language.code),
        catalog('audit', language.code),
      ]);
      const number = new Intl.NumberFormat(language.code);
      await userWithFetchedLink();
      const userId = await userWithFetchedLink();
      const { page, problems } = await openTab(viewport, language.locale);
      const snap = async (name: string) => {
        if (SAVE_SCREENSHOTS && (viewport.name === 'desktop') === (language.code === 'en')) {
          // From the top: the header sticks to wherever the page is scrolled.
          await page.evaluate('window.scrollTo(0, 0)');
          await page.screenshot({
            path: join(ROOT, 'docs', `dashboard-admin-${name}-${viewport.name}-${language.code}.png`),
            fullPage: true,
          });
        }
      };

      // Statistics: the key numbers and the charts' tables say what the API says.
      await enterConsole(page, admin);
      await page.getByRole('heading', { name: text(statsText, 'title') }).waitFor();
      expect(await page.evaluate('document.documentElement.dir')).toBe(language.dir);
      const week = await stats('');
      await expect
        .poll(() => page.locator('[data-number="total_users"]').textContent())
        .toBe(number.format(week.total_users));
      expect(week.requests_by_kind.public).toBe(fetches);
      for (const title of ['charts.requestsPerDay', 'charts.newPerDay', 'charts.byKind']) {
        await page.getByRole('img', { name: text(statsText, title) }).waitFor();
      }
      const byKind = await chartTable(page, statsText, text(statsText, 'charts.byKind'));
      expect(byKind).toContainEqual([text(statsText, 'kinds.public'), number.format(fetches)]);
      const today = new Date();
      today.setUTCHours(0, 0, 0, 0);
      const todays = await stats(`?start_date=${today.toISOString()}`);
      const perDay = await chartTable(page, statsText, text(statsText, 'charts.newPerDay'));
      expect(perDay).toHaveLength(7);
      expect(perDay.at(-1)?.slice(1)).toEqual([
        number.format(todays.new_users),
        number.format(todays.new_subscriptions),
      ]);
      expect(todays.new_users).toBeGreaterThanOrEqual(2);
      // Every bar keeps its label, on a phone too: the requests chart's labels are its table's days, all of them.
      const requestsTitle = text(statsText, 'charts.requestsPerDay');
      const requestsFigure = page.locator('figure').filter({ has: page.getByText(requestsTitle, { exact: true }) });
      const drawnDays = await requestsFigure.locator('text.admin-chart-label').allTextContents();
      expect(drawnDays).toEqual((await chartTable(page, statsText, requestsTitle)).map((row) => row[0]));
      // The bars of the requests chart: today's is drawn, and taller than nothing.
      const bars = page.getByRole('img', { name: text(statsText, 'charts.requestsPerDay') }).locator('rect');
      expect(await bars.count()).toBe(7);
      expect(Number(await bars.last().getAttribute('height'))).toBeGreaterThan(0);
      // The last 24 hours: one bar an hour.
      await page.getByText(text(statsText, 'ranges.day'), { exact: true }).click();
      const hourly = page.getByRole('img', { name: text(statsText, 'charts.requestsPerHour') }).locator('rect');
      await expect.poll(() => hourly.count()).toBe(24);
      // All 24 hours labelled, none over its neighbour (on a phone the chart scrolls in its own box).
      const hourLabels = page
        .locator('figure')
        .filter({ has: page.getByText(text(statsText, 'charts.requestsPerHour'), { exact: true }) })
        .locator('text.admin-chart-label');
      const boxes = await hourLabels.evaluateAll((labels) =>
        labels.map((label) => {
          const box = label.getBoundingClientRect();
          return { left: box.left, right: box.right, text: label.textContent };
        }),
      );
      expect(boxes).toHaveLength(24);
      for (let hour = 1; hour < boxes.length; hour++) {
        expect(boxes[hour]!.left, `${boxes[hour]!.text} clear of ${boxes[hour - 1]!.text}`).toBeGreaterThanOrEqual(
          boxes[hour - 1]!.right - 0.5,
        );
      }
      expect(await noSidewaysScroll(page)).toBe(true);
      await expectAccessible(page, 'admin statistics');
      await snap('stats');

      // Bans: the automatic ban is listed as one; a bad address is refused under its field.
      await openScreen(page, admin, 'bans');
      const banList = page.getByRole('list', { name: text(bans, 'bans.title') });
      const automatic = banList.getByRole('listitem').filter({ hasText: ABUSER });
      await automatic.waitFor();
      expect(await automatic.textContent()).toContain(text(bans, 'bans.automatic'));
      const banForm = page.getByRole('form', { name: text(bans, 'bans.add') });
      const address = banForm.getByRole('textbox', { name: text(bans, 'address') });
      await address.fill('300.1.2.3');
      await banForm.getByRole('button', { name: text(bans, 'bans.add') }).click();
      await banForm.getByText(text(bans, 'errors.badAddress')).waitFor();
      expect(await address.getAttribute('aria-invalid')).toBe('true');
      await banForm.getByRole('textbox', { name: text(bans, 'bans.duration') }).fill('0');
      await banForm.getByRole('button', { name: text(bans, 'bans.add') }).click();
      await banForm.getByText(text(bans, 'errors.badDuration')).waitFor();

      // A two-hour ban on a range, then lifted after the confirmation; the API agrees each time.
      const range = `203.0.${CASES.findIndex((one) => one.viewport === viewport && one.language === language)}.0/24`;
      await address.fill(range);
      await banForm.getByRole('textbox', { name: text(bans, 'bans.duration') }).fill('2');
      await banForm.getByRole('button', { name: text(bans, 'bans.add') }).click();
      const mine = banList.getByRole('listitem').filter({ hasText: range });
      await mine.waitFor();
      expect(await mine.textContent()).toContain(text(bans, 'bans.manual'));
      const encoded = encodeURIComponent(range);
      const banned = (await t.admin('GET', `/ban/${encoded}`)).json<{
        is_banned: boolean;
        remaining_seconds: number;
      }>();
      expect(banned.is_banned).toBe(true);
      expect(banned.remaining_seconds).toBeGreaterThan(7000);
      expect(banned.remaining_seconds).toBeLessThanOrEqual(7200);
      expect(await noSidewaysScroll(page)).toBe(true);
      await expectAccessible(page, 'admin bans');
      await snap('bans');
      await page.getByRole('button', { name: text(bans, 'bans.liftNamed', { ip: range }) }).click();
      const liftDialog = page.getByRole('dialog', { name: text(bans, 'bans.confirmTitle', { ip: range }) });
      await expectAccessible(page, 'admin bans, lifting confirmation');
      await liftDialog.getByRole('button', { name: text(bans, 'bans.lift'), exact: true }).click();
      await mine.waitFor({ state: 'detached' });
      expect((await t.admin('GET', `/ban/${encoded}`)).json()).toMatchObject({ is_banned: false });

      // The whitelist: add an entry with a reason, then remove it after the confirmation.
      const whitelistForm = page.getByRole('form', { name: text(bans, 'whitelist.add') });
      const office = `192.0.2.${10 + CASES.findIndex((one) => one.viewport === viewport && one.language === language)}`;
      await whitelistForm.getByRole('textbox', { name: text(bans, 'address') }).fill(office);
      await whitelistForm.getByRole('textbox', { name: text(bans, 'whitelist.description') }).fill('office');
      await whitelistForm.getByRole('button', { name: text(bans, 'whitelist.add') }).click();
      const entry = page
        .getByRole('list', { name: text(bans, 'whitelist.title') })
        .getByRole('listitem')
        .filter({ hasText: office });
      await entry.waitFor();
      expect(await entry.textContent()).toContain('office');
      const listed = async () =>
        (await t.admin('GET', '/whitelist')).json<{ entries: Array<{ ip_address: string; description: string }> }>()
          .entries;
      expect(await listed()).toContainEqual(expect.objectContaining({ ip_address: office, description: 'office' }));
      await page.getByRole('button', { name: text(bans, 'whitelist.removeNamed', { ip: office }) }).click();
      await page
        .getByRole('dialog', { name: text(bans, 'whitelist.confirmTitle', { ip: office }) })
        .getByRole('button', { name: text(bans, 'whitelist.remove'), exact: true })
        .click();
      await entry.waitFor({ state: 'detached' });
      expect((await listed()).map((one) => one.ip_address)).not.toContain(office);

      // The audit log, filtered by target: this range's ban and its lifting, newest first, in words.
      await openScreen(page, admin, 'audit');
      await page.getByRole('heading', { name: text(audit, 'title') }).waitFor();
      const entries = page.getByRole('list', { name: text(audit, 'listLabel') }).getByRole('listitem');
      await entries.first().waitFor();
      await page.getByRole('textbox', { name: text(audit, 'filters.target') }).fill(`ban:${range}`);
      await page.getByRole('button', { name: text(audit, 'filters.apply') }).click();
      await expect.poll(() => entries.count()).toBe(2);
      expect(await entries.nth(0).textContent()).toContain(text(audit, 'actions.ban.delete'));
      expect(await entries.nth(1).textContent()).toContain(text(audit, 'actions.ban.create'));
      expect(await entries.nth(1).textContent()).toContain(text(audit, 'actors.adminApi'));
      expect(page.url()).toContain(`target=ban%3A${encodeURIComponent(range.split('/')[0] as string)}`);

      // Cleared, then Back: the filter is in the form and the list again.
      await page.getByRole('button', { name: text(audit, 'filters.clear') }).click();
      await expect.poll(() => entries.count()).toBeGreaterThan(2);
      await page.goBack();
      const targetField = page.getByRole('textbox', { name: text(audit, 'filters.target') });
      await expect.poll(() => targetField.inputValue()).toBe(`ban:${range}`);
      await expect.poll(() => entries.count()).toBe(2);

      // By actor: the one thing this user did, creating a subscription.
      await page.getByRole('button', { name: text(audit, 'filters.clear') }).click();
      await expect.poll(() => new URL(page.url()).search).toBe('');
      await page.getByRole('textbox', { name: text(audit, 'filters.actor') }).fill(`user:${userId}`);
      await page.getByRole('button', { name: text(audit, 'filters.apply') }).click();
      await expect.poll(() => entries.count()).toBe(1);
      expect(await entries.first().textContent()).toContain(
        text(audit, 'actors.user', { id: digits(language.code, userId) }),
      );
      expect(await entries.first().textContent()).toContain(text(words, 'actions.subscription.create'));

      // A change to a user: its field by the label in this language, never the key (`is_active`), and the other
      // summary fields by their labels too, numbers in the language's digits.
      const disabled = await t.admin('PATCH', `/users/${userId}`, { is_active: false });
      expect(disabled.statusCode, disabled.body).toBe(200);
      await page.getByRole('button', { name: text(audit, 'filters.clear') }).click();
      await expect.poll(() => new URL(page.url()).search).toBe('');
      await page.getByRole('textbox', { name: text(audit, 'filters.target') }).fill(`user:${userId}`);
      await page.getByRole('button', { name: text(audit, 'filters.apply') }).click();
      const disabling = entries.filter({ hasText: text(audit, 'actions.user.disable') });
      await disabling.waitFor();
      const disablingText = (await disabling.textContent()) ?? '';
      expect(disablingText).toContain(text(words, 'summary.fields', { value: text(words, 'fields.is_active') }));
      expect(disablingText).toContain(`${text(words, 'fields.user_id')}: ${digits(language.code, userId)}`);
      expect(disablingText).not.toContain('is_active');
      expect(disablingText).not.toContain('user_id');

      // By action (picked from the list in words) and a time range: as many entries as the API gives.
      await page.getByRole('button', { name: text(audit, 'filters.clear') }).click();
      await expect.poll(() => new URL(page.url()).search).toBe('');
      await page.getByRole('combobox', { name: text(audit, 'filters.action') }).click();
      await page.getByRole('option', { name: text(words, 'actions.subscription.create') }).click();
      const hourAgo = new Date(Date.now() - 3_600_000);
      const local = new Date(hourAgo.getTime() - hourAgo.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
      await page.getByLabel(text(audit, 'filters.since'), { exact: true }).fill(local);
      await page.getByRole('button', { name: text(audit, 'filters.apply') }).click();
      await expect.poll(() => page.url()).toContain('action=subscription.create');
      const since = new URL(page.url()).searchParams.get('since') as string;
      const fromApi = (
        await t.admin('GET', `/audit?action=subscription.create&since=${encodeURIComponent(since)}`)
      ).json<{
        entries: unknown[];
      }>().entries.length;
      expect(fromApi).toBeGreaterThanOrEqual(2);
      await expect.poll(() => entries.count()).toBe(fromApi);
      expect(await entries.first().textContent()).toContain(text(words, 'actions.subscription.create'));
      expect(await noSidewaysScroll(page)).toBe(true);
      await expectAccessible(page, 'admin audit log');
      await snap('audit');

      // Dark: the three screens again.
      await page.getByRole('button', { name: text(shell, 'colorScheme.toDark') }).click();
      expect(await page.evaluate('document.documentElement.dataset.mantineColorScheme')).toBe('dark');
      await expectAccessible(page, 'admin audit log (dark)');
      await openScreen(page, admin, 'bans');
      await banList.getByRole('listitem').first().waitFor();
      await expectAccessible(page, 'admin bans (dark)');
      await openScreen(page, admin, 'stats');
      await page.getByRole('img', { name: text(statsText, 'charts.byKind') }).waitFor();
      await expectAccessible(page, 'admin statistics (dark)');
      await snap('stats-dark');

      // The one refusal asked for (the bad address) is all Chromium logged.
      expect(problems).toEqual([
        'console: Failed to load resource: the server responded with a status of 400 (Bad Request)',
      ]);
    }, 180_000);
  }

  /** Presses Tab until `target` has the focus; fails after 150 presses. */
  async function tabTo(page: Page, target: Locator): Promise<void> {
    for (let press = 0; press < 150; press++) {
      if (await target.evaluate((element) => element === element.ownerDocument.activeElement)) return;
      await page.keyboard.press('Tab');
    }
    throw new Error('Tab never reached the element');
  }

  it('works by keyboard alone: the gate, a ban added and lifted, the numbers of a chart, older audit entries', async () => {
    const [admin, statsText, bans, audit] = await Promise.all([
      catalog('admin', 'en'),
      catalog('admin/screens/stats', 'en'),
      catalog('admin/screens/bans', 'en'),
      catalog('admin/screens/audit', 'en'),
    ]);
    // More entries than the first page of 50.
    for (let entry = 0; entry < 26; entry++) {
      const ip = `192.0.2.${100 + entry}`;
      expect((await t.admin('POST', '/whitelist', { ip_address: ip })).statusCode).toBe(201);
      expect((await t.admin('DELETE', `/whitelist/${ip}`)).statusCode).toBe(200);
    }
    const { page, problems } = await openTab(VIEWPORTS[0], 'en-US');
    await page.goto(`${origin}/app/admin`);
    const secret = page.getByLabel(text(admin, 'gate.secret'), { exact: true });
    await tabTo(page, secret);
    await page.keyboard.type(ADMIN_SECRET);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: text(statsText, 'title') }).waitFor();

    // The range by arrow keys: from the last 7 days to the last 30, one bar a day.
    await tabTo(page, page.getByRole('radio', { name: text(statsText, 'ranges.week') }));
    await page.keyboard.press('ArrowRight');
    const daily = page.getByRole('img', { name: text(statsText, 'charts.requestsPerDay') }).locator('rect');
    await expect.poll(() => daily.count()).toBe(30);
    expect(await page.getByRole('radio', { name: text(statsText, 'ranges.month') }).isChecked()).toBe(true);

    // A chart's numbers open from the keyboard.
    const toggle = page
      .locator('figure')
      .filter({ has: page.getByText(text(statsText, 'charts.byKind'), { exact: true }) })
      .getByRole('button', { name: text(statsText, 'showTable') });
    await tabTo(page, toggle);
    await page.keyboard.press('Enter');
    await page.getByRole('table', { name: text(statsText, 'charts.byKind') }).waitFor();

    // A ban typed in and submitted with Enter, lifted with Enter and confirmed with Enter.
    const nav = page.getByRole('navigation', { name: text(admin, 'nav.label') });
    await tabTo(page, nav.getByRole('link', { name: text(admin, 'nav.bans') }));
    await page.keyboard.press('Enter');
    const address = page
      .getByRole('form', { name: text(bans, 'bans.add') })
      .getByRole('textbox', { name: text(bans, 'address') });
    await tabTo(page, address);
    await page.keyboard.type('2001:db8:7::/48');
    await page.keyboard.press('Enter');
    const lift = page.getByRole('button', { name: text(bans, 'bans.liftNamed', { ip: '2001:db8:7::/48' }) });
    await lift.waitFor();
    expect((await t.admin('GET', `/ban/${encodeURIComponent('2001:db8:7::/48')}`)).json()).toMatchObject({
      is_banned: true,
    });
    await tabTo(page, lift);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const confirm = dialog.getByRole('button', { name: text(bans, 'bans.lift'), exact: true });
    await tabTo(page, confirm);
    await page.keyboard.press('Enter');
    await lift.waitFor({ state: 'detached' });
    expect((await t.admin('GET', `/ban/${encodeURIComponent('2001:db8:7::/48')}`)).json()).toMatchObject({
      is_banned: false,
    });

    // The audit log's next page, through the cursor.
    await tabTo(page, nav.getByRole('link', { name: text(admin, 'nav.audit') }));
    await page.keyboard.press('Enter');
    const entries = page.getByRole('list', { name: text(audit, 'listLabel') }).getByRole('listitem');
    await entries.first().waitFor();
    expect(await entries.count()).toBe(50);
    const more = page.getByRole('button', { name: text(audit, 'loadMore') });
    await tabTo(page, more);
    await page.keyboard.press('Enter');
    await expect.poll(() => entries.count()).toBeGreaterThan(50);
    expect(problems).toEqual([]);
  }, 180_000);
});
