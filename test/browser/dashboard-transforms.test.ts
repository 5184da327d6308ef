// The transforms editor in headless Chromium against the built app on SQLite: a chain built from the form and the
// recipes with the preview's counts and names following each edit, an invalid pattern refused at its operator, order
// changed, saved and served by the public link, discarded edits; at 1280 and 360 px, in English and Persian, light and
// dark, with axe-core, and a keyboard-only run; the preview asked only once the editor is on screen.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { freePort } from '../../scripts/support/private-services.js';
import { findChromium } from '../support/chromium.js';
import { LANGUAGES, VIEWPORTS, catalog, text, useDashboard, type Strings } from '../support/dashboard-browser.js';
import { hysteria2Uri, ssUri, trojanUri, vlessUri, vmessJsonUri } from '../support/factories.js';

const executablePath = findChromium();
const SKIP_REASON =
  'dashboard transforms browser tests skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)';
if (!executablePath) console.warn(SKIP_REASON);

const ROOT = join(import.meta.dirname, '../..');
/** DASHBOARD_SCREENSHOTS=1 rewrites the screenshots under docs/ that docs/dashboard.md shows. */
const SAVE_SCREENSHOTS = process.env['DASHBOARD_SCREENSHOTS'] === '1';
const PORT = await freePort();

/** Six servers, one of them a provider's traffic notice, one a vmess link that carries its name inside. */
const SOURCES = [
  `${vlessUri()}#JP Tokyo 01`,
  `${ssUri()}#SG Singapore 02`,
  `${trojanUri()}#US New York`,
  `${vlessUri()}#${encodeURIComponent('剩余流量：10GB')}`,
  `${hysteria2Uri()}#JP Osaka 03`,
  vmessJsonUri('JP Nagoya 04'),
];

const CASES = [
  { viewport: VIEWPORTS[0], language: LANGUAGES[0] },
  { viewport: VIEWPORTS[1], language: LANGUAGES[1] },
] as const;

(executablePath ? describe : describe.skip)(executablePath ? 'dashboard transforms in Chromium' : SKIP_REASON, () => {
  const { t, origin, openTab, signIn, expectAccessible } = useDashboard(PORT, {}, executablePath as string);

  async function userApi(token: string, method: string, path: string, body?: unknown): Promise<Response> {
    return fetch(`${origin}/api/v1${path}`, {
      method,
      headers: { 'API-Token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  /** A fresh user with one subscription of SOURCES; opens it in the browser. */
  async function openSubscription(page: Page, language: string): Promise<{ apiToken: string; subToken: string }> {
    const user = await t.newUser();
    const created = await userApi(user.token, 'POST', '/subs', { name: 'Travel', sources: SOURCES });
    expect(created.status).toBe(201);
    const subToken = ((await created.json()) as { token: string }).token;
    await signIn(page, user.token, language);
    await page.goto(`${origin}/app/subs/${subToken}`);
    await page.getByRole('heading', { name: 'Travel' }).waitFor();
    return { apiToken: user.token, subToken };
  }

  /** The server names the public link serves, in order, from its plain list. */
  async function servedNames(subToken: string): Promise<string[]> {
    const answer = await fetch(`${origin}/sub/${subToken}?format=plain`);
    expect(answer.status).toBe(200);
    const lines = (await answer.text()).split('\n').filter((line) => line.trim() !== '');
    return lines.map((line) =>
      line.startsWith('vmess://')
        ? (JSON.parse(Buffer.from(line.slice(8), 'base64').toString()) as { ps: string }).ps
        : decodeURIComponent(line.slice(line.indexOf('#') + 1)),
    );
  }

  /** The editor's view of the page in one language: its parts found by their names in that language's catalog. */
  function editor(page: Page, strings: Strings, language: string) {
    const number = (value: number) => new Intl.NumberFormat(language).format(value);
    const section = page.getByRole('region', { name: text(strings, 'title') });
    const operator = (position: number, kind: string) =>
      section.getByRole('listitem', {
        name: `${text(strings, 'position', { position: number(position) })}: ${text(strings, `ops.${kind}.label`)}`,
      });
    const counts = (card: Locator, given: number, kept: number) =>
      card.getByText(text(strings, 'counts', { in: number(given), out: number(kept) })).waitFor();
    const served = (count: number) =>
      section.getByText(text(strings, 'served', { count: number(count) }), { exact: true }).waitFor();
    const names = section.getByRole('list', { name: text(strings, 'firstNames', { count: number(20) }) });
    return { section, operator, counts, served, names, number };
  }

  for (const { viewport, language } of CASES) {
    it(`builds a chain with a live preview, saves it and the link serves it (${viewport.name}, ${language.code})`, async () => {
      const strings = await catalog('screens/subscriptions/transforms', language.code);
      const shell = await catalog('shell', language.code);
      const { page, problems } = await openTab(viewport, language.locale);
      const { apiToken, subToken } = await openSubscription(page, language.code);
      const { section, operator, counts, served, names, number } = editor(page, strings, language.code);
      const button = (key: string) => section.getByRole('button', { name: text(strings, key), exact: true });
      const snap = async (name: string) => {
        if (SAVE_SCREENSHOTS) {
          // The section's top just under the fixed header.
          await section.evaluate((element) => {
            element.scrollIntoView();
            element.ownerDocument.defaultView?.scrollBy(0, -70);
          });
          await page.screenshot({
            path: join(ROOT, 'docs', `dashboard-${name}-${viewport.name}-${language.code}.png`),
          });
        }
      };

      // No chain yet: every server is served, nothing to save. The preview starts once the editor is on screen.
      await section.getByText(text(strings, 'empty')).waitFor();
      await section.scrollIntoViewIfNeeded();
      await served(6);
      expect(await button('save').isDisabled()).toBe(true);

      // A recipe: the notice goes, and the operator says it was given 6 servers and kept 5.
      await section.getByRole('button', { name: text(strings, 'recipe.dropInfo') }).click();
      await counts(operator(1, 'drop_info'), 6, 5);
      await served(5);
      await section.getByText(text(strings, 'unsaved')).waitFor();

      // An operator from the form: keep Japan and Singapore.
      await section.getByLabel(text(strings, 'addKind')).selectOption('include');
      await button('add').click();
      const include = operator(2, 'include');
      await include.getByLabel(text(strings, 'fields.pattern')).fill('^(JP|SG) ');
      await counts(include, 5, 4);
      await served(4);
      expect(await names.getByRole('listitem').allTextContents()).toEqual([
        'JP Tokyo 01',
        'SG Singapore 02',
        'JP Osaka 03',
        'JP Nagoya 04',
      ]);

      // A pattern RE2 cannot run: the API's refusal is shown at that operator, and the preview says the chain cannot run.
      await include.getByLabel(text(strings, 'fields.pattern')).fill('^(JP|SG');
      await include.getByText(text(strings, 'invalid')).waitFor();
      expect(await include.textContent()).toContain('operator 1: (include) `pattern` is not a valid pattern');
      expect(await operator(1, 'drop_info').getByText(text(strings, 'invalid')).count()).toBe(0);
      await include.getByLabel(text(strings, 'fields.pattern')).fill('^(JP|SG) ');
      await counts(include, 5, 4);
      expect(await include.getByText(text(strings, 'invalid')).count()).toBe(0);

      // Flags, then sorting by name in descending order.
      await section.getByRole('button', { name: text(strings, 'recipe.flag') }).click();
      await section.getByLabel(text(strings, 'addKind')).selectOption('sort');
      await button('add').click();
      await operator(4, 'sort').getByLabel(text(strings, 'fields.order')).selectOption('desc');
      await expect
        .poll(() => names.getByRole('listitem').allTextContents())
        .toEqual(['🇸🇬 SG Singapore 02', '🇯🇵 JP Tokyo 01', '🇯🇵 JP Osaka 03', '🇯🇵 JP Nagoya 04']);

      // Order matters: the flag before the pattern leaves nothing for it to match; moved back, all is as before.
      await operator(3, 'flag')
        .getByRole('button', { name: text(strings, 'moveUp', { position: number(3) }) })
        .click();
      await counts(operator(3, 'include'), 5, 0);
      await section.getByText(text(strings, 'noServers')).waitFor();
      await operator(2, 'flag')
        .getByRole('button', { name: text(strings, 'moveDown', { position: number(2) }) })
        .click();
      await counts(operator(2, 'include'), 5, 4);
      await served(4);
      if (viewport.width < 768) {
        expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      }
      await expectAccessible(page, 'transforms editor');
      await snap('transforms');

      // Saved: the indicator goes, the API returns the chain with its defaults, and the link serves the result.
      await button('save').click();
      await section.getByText(text(strings, 'saved')).waitFor();
      expect(await section.getByText(text(strings, 'unsaved')).count()).toBe(0);
      const stored = await userApi(apiToken, 'GET', `/subs/${subToken}`);
      expect(((await stored.json()) as { transforms: unknown[] }).transforms).toEqual([
        { op: 'drop_info' },
        { op: 'include', pattern: '^(JP|SG) ', field: 'name' },
        { op: 'flag' },
        { op: 'sort', by: 'name', order: 'desc' },
      ]);
      expect(await servedNames(subToken)).toEqual([
        '🇸🇬 SG Singapore 02',
        '🇯🇵 JP Tokyo 01',
        '🇯🇵 JP Osaka 03',
        '🇯🇵 JP Nagoya 04',
      ]);

      // An edit, then discarded: the saved chain comes back and nothing is unsaved.
      await operator(4, 'sort')
        .getByRole('button', { name: text(strings, 'remove', { position: number(4) }) })
        .click();
      await section.getByText(text(strings, 'unsaved')).waitFor();
      await button('discard').click();
      await operator(4, 'sort').waitFor();
      expect(await section.getByText(text(strings, 'unsaved')).count()).toBe(0);

      // After a reload the saved chain is there; dark theme passes axe too.
      await page.reload();
      await section.scrollIntoViewIfNeeded();
      await counts(operator(2, 'include'), 5, 4);
      await page.getByRole('button', { name: text(shell, 'colorScheme.toDark') }).click();
      expect(await page.evaluate('document.documentElement.dataset.mantineColorScheme')).toBe('dark');
      await expectAccessible(page, 'transforms editor (dark)');
      // docs/dashboard.md shows dark mode on the desktop only.
      if (viewport.name === 'desktop') await snap('transforms-dark');

      // The invalid pattern's preview answered 400, which Chromium logs; nothing else may appear.
      expect(problems.filter((problem) => !problem.includes('status of 400'))).toEqual([]);
    }, 120_000);
  }

  it('asks for the preview only once the editor has been on screen', async () => {
    const strings = await catalog('screens/subscriptions/transforms', 'en');
    const { page, problems } = await openTab(VIEWPORTS[1], 'en-US');
    const previews: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/preview')) previews.push(request.url());
    });
    await openSubscription(page, 'en');
    const { section, served } = editor(page, strings, 'en');
    await section.getByText(text(strings, 'empty')).waitFor();
    // On a phone the editor starts below the fold; a preview asked on mount would have gone out by now.
    const top = await section.evaluate((element) => element.getBoundingClientRect().top);
    expect(top).toBeGreaterThan((await page.evaluate('window.innerHeight')) as number);
    await page.waitForTimeout(1_000);
    expect(previews).toEqual([]);

    await section.scrollIntoViewIfNeeded();
    await served(6);
    expect(previews).toHaveLength(1);
    // Scrolled away and back, the preview stays as it was: nothing is asked again until the chain changes.
    await page.evaluate('window.scrollTo(0, 0)');
    await section.scrollIntoViewIfNeeded();
    await section.getByRole('button', { name: text(strings, 'recipe.dropInfo') }).click();
    await served(5);
    expect(previews).toHaveLength(2);
    expect(problems).toEqual([]);
  }, 120_000);

  it('builds, reorders, removes and saves with the keyboard alone', async () => {
    const strings = await catalog('screens/subscriptions/transforms', 'en');
    const { page, problems } = await openTab(VIEWPORTS[0], 'en-US');
    const { apiToken, subToken } = await openSubscription(page, 'en');
    const { section, operator, counts } = editor(page, strings, 'en');
    const focused = () => page.evaluate('document.activeElement?.getAttribute("aria-label")');

    /** Presses Tab until the button named `name` has the focus, then Enter. */
    async function press(name: string): Promise<void> {
      const target = section.getByRole('button', { name, exact: true });
      for (let presses = 0; presses < 200; presses++) {
        if (await target.evaluate((element) => element === element.ownerDocument.activeElement)) {
          await page.keyboard.press('Enter');
          return;
        }
        await page.keyboard.press('Tab');
      }
      throw new Error(`Tab never reached ${name}`);
    }

    await press('Drop notices');
    await press('Sort by name');
    await press('Remove duplicates');
    await counts(operator(3, 'dedupe'), 5, 5);

    // Moving the sort up keeps the focus on it: its "up" button is gone at the top, so "down" has the focus.
    await press('Move operator 2 up');
    await operator(1, 'sort').waitFor();
    // The focus moves in an effect after the re-render: poll for it rather than read it once.
    await expect.poll(focused).toBe('Move operator 1 down');
    // Removing the dedupe hands the focus to the operator now last.
    await press('Remove operator 3');
    await expect.poll(() => section.getByRole('list', { name: 'Operators' }).getByRole('listitem').count()).toBe(2);
    await expect.poll(focused).toBe('Remove operator 2');
    await counts(operator(2, 'drop_info'), 6, 5);

    // Leaving with edits not saved asks first; staying keeps them.
    const asked = page.waitForEvent('dialog');
    const closing = page.close({ runBeforeUnload: true });
    const dialog = await asked;
    expect(dialog.type()).toBe('beforeunload');
    await dialog.dismiss();
    await closing;
    await section.getByText('Unsaved changes').waitFor();

    await press('Save');
    await section.getByText('Saved.').waitFor();
    const stored = await userApi(apiToken, 'GET', `/subs/${subToken}`);
    expect(((await stored.json()) as { transforms: unknown[] }).transforms).toEqual([
      { op: 'sort', by: 'name', order: 'asc' },
      { op: 'drop_info' },
    ]);
    expect(problems).toEqual([]);
  }, 120_000);
});
