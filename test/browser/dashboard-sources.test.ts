// The sources editor in headless Chromium against the built app on SQLite with a real local upstream: paste many with
// the per-line report, include another subscription by name, reorder by mouse, touch and keyboard alone, hide,
// comment, remove, and a held shrink refreshed then accepted; every change checked through the API, at 1280 and
// 360 px, in English and Persian, light and dark, with axe-core and no CSP violation or console error.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
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
import { requestAccess, trojanUri, vlessUri, type Subscription } from '../support/factories.js';
import { upstreamLines, useUpstream } from '../support/upstream-server.js';
import { freePort } from '../../scripts/support/private-services.js';

const executablePath = findChromium();
const SKIP_REASON =
  'dashboard sources browser tests skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)';
if (!executablePath) console.warn(SKIP_REASON);

const ROOT = join(import.meta.dirname, '../..');
/** DASHBOARD_SCREENSHOTS=1 rewrites the screenshots under docs/ that docs/dashboard.md shows. */
const SAVE_SCREENSHOTS = process.env['DASHBOARD_SCREENSHOTS'] === '1';
const PORT = await freePort();
/** Answers come over real HTTP on a machine other suites share: wait up to 10 s, not expect.poll's default 1 s. */
const POLL = { timeout: 10_000 };

const [DESKTOP, PHONE] = VIEWPORTS;
const [ENGLISH, PERSIAN] = LANGUAGES;
const CASES = [
  { viewport: DESKTOP, language: ENGLISH },
  { viewport: PHONE, language: PERSIAN },
] as const;

const SUITE = executablePath ? 'dashboard sources editor in Chromium' : SKIP_REASON;

(executablePath ? describe : describe.skip)(SUITE, () => {
  const { t, origin, openTab, signIn, expectAccessible } = useDashboard(PORT, {}, executablePath as string);
  const upstream = useUpstream();

  async function subscription(userToken: string, token: string): Promise<Subscription> {
    const res = await t.call('GET', `/api/v1/subs/${token}`, { token: userToken });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Subscription>();
  }

  async function create(userToken: string, name: string, sources: string[]): Promise<Subscription> {
    const res = await t.call('POST', '/api/v1/subs', { token: userToken, body: { name, sources } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Subscription>();
  }

  const rowsOf = (page: Page, strings: Strings) =>
    page.getByRole('list', { name: text(strings, 'order') }).locator(':scope > li');
  const handleOf = (page: Page, strings: Strings, name: string) =>
    page.getByRole('button', { name: text(strings, 'move.label', { name }), exact: true });

  async function centre(locator: Locator): Promise<{ x: number; y: number }> {
    const box = await locator.boundingBox();
    if (!box) throw new Error('not on screen');
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  }

  /** Drags `handle` to just inside the top of `target` with the mouse, or with a finger (touch events through CDP). */
  async function drag(page: Page, handle: Locator, target: Locator, touch: boolean): Promise<void> {
    await handle.scrollIntoViewIfNeeded();
    const from = await centre(handle);
    const box = await target.boundingBox();
    if (!box) throw new Error('target not on screen');
    const to = { x: from.x, y: box.y + 4 };
    const steps = Array.from({ length: 8 }, (_, i) => ({
      x: from.x,
      y: from.y + ((to.y - from.y) * (i + 1)) / 8,
    }));
    if (!touch) {
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      for (const point of steps) await page.mouse.move(point.x, point.y);
      await page.mouse.up();
      return;
    }
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
    for (const point of steps) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await cdp.detach();
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
    it(`edits sources and accepts a held shrink (${viewport.name}, ${language.code})`, async () => {
      const s = await catalog('screens/subscriptions/sources', language.code);
      const shell = await catalog('shell', language.code);
      const user = await t.newUser();
      const feed = upstream.current.add(upstreamLines(20).join('\n'));
      const work = await create(user.token, 'Work', [vlessUri()]);
      const home = await create(user.token, 'Home', [`${vlessUri()}#Amsterdam`, feed]);
      const external = home.sources[1];
      expect(external?.configs_count).toBe(20);
      const feedName = `${new URL(feed).host}${new URL(feed).pathname}`;

      const { page, problems } = await openTab(viewport, language.locale);
      const snap = async (name: string) => {
        if (!SAVE_SCREENSHOTS) return;
        const file = `dashboard-${name}-${viewport.name}-${language.code}.png`;
        // The section alone, in page coordinates, so the fixed header does not cover its top.
        const box = await page.getByRole('region', { name: text(s, 'title') }).boundingBox();
        const scrollY = Number(await page.evaluate('window.scrollY'));
        if (!box) throw new Error('the sources section is not on the page');
        const clip = { x: box.x, y: box.y + scrollY, width: box.width, height: box.height };
        await page.screenshot({ path: join(ROOT, 'docs', file), fullPage: true, clip });
      };
      await signIn(page, user.token, language.code);
      await page.goto(`${origin}/app/subs/${home.token}`);
      await page.getByRole('heading', { name: 'Home' }).waitFor();
      const rows = rowsOf(page, s);
      await expect.poll(() => rows.count(), POLL).toBe(2);
      // The subscription URL's health: servers in its cached content and when it was last fetched.
      const n = (value: number) => count(language.code, value);
      expect(await rows.nth(1).textContent()).toContain(text(s, 'health.configs', { count: n(20) }));
      expect(await rows.nth(1).textContent()).not.toContain(text(s, 'health.never'));

      // The hint's link schemes sit in a left-to-right isolate, so a Persian sentence keeps `vless://` in order.
      const pasteField = page.getByLabel(text(s, 'add.label'), { exact: true });
      const hint = await pasteField.evaluate((field) =>
        (field.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id: string) => field.ownerDocument.getElementById(id)?.textContent ?? '')
          .join(' '),
      );
      expect(hint).toContain('\u2066vless://, vmess://, trojan://, ss://…\u2069');

      // Paste many: one new server, a line that is no source, and the config already there (its comment differs).
      const paris = `${trojanUri()}#Paris`;
      const amsterdam = home.sources[0]?.data ?? '';
      await page
        .getByLabel(text(s, 'add.label'), { exact: true })
        .fill(`${paris}\n\nhello there\n${amsterdam.replace('#Amsterdam', '#Again')}`);
      await page.getByRole('button', { name: text(s, 'add.submit'), exact: true }).click();
      const report = page.getByRole('status').filter({ hasText: text(s, 'report.title') });
      await report.waitFor();
      expect(await report.textContent()).toContain(text(s, 'report.summary', { added: n(1), skipped: n(2) }));
      const lines = report.getByRole('listitem');
      expect(await lines.count()).toBe(3);
      expect(await lines.nth(0).textContent()).toContain(text(s, 'report.added'));
      // Line numbers count the blank line.
      expect(await lines.nth(1).textContent()).toContain(text(s, 'report.line', { line: digits(language.code, 3) }));
      expect(await lines.nth(1).textContent()).toContain(text(s, 'report.reasons.invalid_source'));
      expect(await lines.nth(2).textContent()).toContain(text(s, 'report.reasons.duplicate'));
      await expect.poll(() => rows.count(), POLL).toBe(3);
      let saved = await subscription(user.token, home.token);
      expect(saved.sources.map((source) => source.comment)).toEqual(['Amsterdam', null, 'Paris']);

      // Include another subscription, picked by its name.
      await page.getByRole('combobox', { name: text(s, 'add.reference') }).selectOption({ label: 'Work' });
      await page.getByRole('button', { name: text(s, 'add.include'), exact: true }).click();
      await expect.poll(() => rows.count(), POLL).toBe(4);
      expect(await rows.nth(3).textContent()).toContain('Work');
      saved = await subscription(user.token, home.token);
      expect(saved.sources[3]?.source_type).toBe('internal_token');
      expect(saved.sources[3]?.data).toBe(`${origin}/api/v1/sub/${work.token}`);
      await expectAccessible(page, 'sources with a paste report');

      // Reorder: the reference dragged to the top with the mouse on a desktop, with a finger on a phone.
      await drag(page, handleOf(page, s, 'Work'), rows.nth(0), viewport.width < 768);
      await expect
        .poll(async () => (await subscription(user.token, home.token)).sources.map((source) => source.id), POLL)
        .toEqual([saved.sources[3]?.id, saved.sources[0]?.id, saved.sources[1]?.id, saved.sources[2]?.id]);
      await expect.poll(() => rows.nth(0).textContent(), POLL).toContain('Work');

      // Hide the external source, then comment on Amsterdam.
      await page.getByRole('button', { name: text(s, 'actions.hideName', { name: feedName }) }).click();
      await page.getByRole('button', { name: text(s, 'actions.showName', { name: feedName }) }).waitFor();
      saved = await subscription(user.token, home.token);
      expect(saved.sources.find((source) => source.id === external?.id)?.is_hidden).toBe(true);
      await page.getByRole('button', { name: text(s, 'actions.commentName', { name: 'Amsterdam' }) }).click();
      const commentDialog = page.getByRole('dialog', { name: text(s, 'comment.title', { name: 'Amsterdam' }) });
      await commentDialog.getByLabel(text(s, 'comment.label')).fill('Amsterdam 2');
      await expectAccessible(page, 'comment dialog');
      await commentDialog.getByRole('button', { name: text(s, 'comment.save') }).click();
      await handleOf(page, s, 'Amsterdam 2').waitFor();
      saved = await subscription(user.token, home.token);
      expect(saved.sources[1]?.comment).toBe('Amsterdam 2');

      // Remove Paris: cancelled once, then confirmed.
      const removeParis = page.getByRole('button', { name: text(s, 'actions.removeName', { name: 'Paris' }) });
      const removeDialog = page.getByRole('dialog', { name: text(s, 'remove.title', { name: 'Paris' }) });
      await removeParis.click();
      await removeDialog
        .getByRole('button', { name: text(s, 'remove.cancel') })
        .first()
        .click();
      await removeDialog.waitFor({ state: 'hidden' });
      expect((await subscription(user.token, home.token)).sources).toHaveLength(4);
      await removeParis.click();
      await expectAccessible(page, 'remove dialog');
      await removeDialog.getByRole('button', { name: text(s, 'remove.confirm') }).click();
      await expect.poll(() => rows.count(), POLL).toBe(3);
      saved = await subscription(user.token, home.token);
      expect(saved.sources.map((source) => source.comment)).toEqual([null, 'Amsterdam 2', null]);

      // The upstream now serves 2 servers instead of 20: "refresh now" holds the smaller result back.
      upstream.current.set(feed, upstreamLines(2).join('\n'));
      await page.getByRole('button', { name: text(s, 'refresh.button') }).click();
      const refreshed = page
        .getByRole('status')
        .filter({ hasText: text(s, 'refresh.report', { refreshed: n(0), failed: n(1), skipped: n(2) }) });
      await refreshed.waitFor();
      const held = rows.filter({ hasText: feedName });
      await held.getByText(text(s, 'health.shrink')).waitFor();
      saved = await subscription(user.token, home.token);
      expect(saved.sources[2]?.shrink_pending).toBe(true);
      expect(saved.sources[2]?.configs_count).toBe(20);
      await expectAccessible(page, 'sources with a held shrink');
      await snap('sources');

      // Dark: axe again while the shrink is held.
      await page.getByRole('button', { name: text(shell, 'colorScheme.toDark') }).click();
      expect(await page.evaluate('document.documentElement.dataset.mantineColorScheme')).toBe('dark');
      await expectAccessible(page, 'sources with a held shrink (dark)');
      if (viewport.name === 'desktop') await snap('sources-dark');

      // Accept the smaller result: the source now serves 2 servers and nothing is held.
      await held.getByRole('button', { name: text(s, 'health.accept') }).click();
      await page
        .getByRole('status')
        .filter({ hasText: text(s, 'refresh.report', { refreshed: n(1), failed: n(0), skipped: n(2) }) })
        .waitFor();
      await expect.poll(() => held.textContent(), POLL).toContain(text(s, 'health.configs', { count: n(2) }));
      saved = await subscription(user.token, home.token);
      expect(saved.sources[2]?.shrink_pending).toBe(false);
      expect(saved.sources[2]?.configs_count).toBe(2);
      expect(await held.getByText(text(s, 'health.shrink')).count()).toBe(0);

      // A failing upstream: the error shows on its source, and the last good content stays.
      upstream.current.set(feed, (_req, res) => res.writeHead(500).end('down'));
      await page.getByRole('button', { name: text(s, 'refresh.button') }).click();
      await expect.poll(() => held.textContent(), POLL).toContain(text(s, 'health.error', { error: '' }));
      saved = await subscription(user.token, home.token);
      expect(saved.sources[2]?.last_error).not.toBeNull();
      expect(await held.textContent()).toContain(saved.sources[2]?.last_error);
      expect(saved.sources[2]?.configs_count).toBe(2);
      await expectAccessible(page, 'sources with a failing upstream (dark)');

      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      expect(problems).toEqual([]);
    }, 180_000);
  }

  it('reorders with the keyboard alone, announcing each step, and cancels with Escape', async () => {
    const s = await catalog('screens/subscriptions/sources', 'en');
    const user = await t.newUser();
    const names = ['Alpha', 'Bravo', 'Charlie'];
    const sub = await create(
      user.token,
      'Keys',
      names.map((name) => `${vlessUri()}#${name}`),
    );
    const ids = sub.sources.map((source) => source.id);
    const { page, problems } = await openTab(DESKTOP, ENGLISH.locale);
    await signIn(page, user.token, 'en');
    await page.goto(`${origin}/app/subs/${sub.token}`);
    const rows = rowsOf(page, s);
    await expect.poll(() => rows.count(), POLL).toBe(3);
    const live = page.locator('[aria-live="assertive"]');

    const alpha = handleOf(page, s, 'Alpha');
    await tabUntilFocused(page, alpha);
    await page.keyboard.press('Space');
    expect(await live.textContent()).toBe(text(s, 'move.picked', { name: 'Alpha', position: 1, total: 3 }));
    await page.keyboard.press('ArrowDown');
    expect(await live.textContent()).toBe(text(s, 'move.moved', { name: 'Alpha', position: 2, total: 3 }));
    await page.keyboard.press('ArrowDown');
    // The handle keeps the focus while its row moves.
    expect(await alpha.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
    await page.keyboard.press('Space');
    expect(await live.textContent()).toBe(text(s, 'move.dropped', { name: 'Alpha', position: 3, total: 3 }));
    await expect
      .poll(async () => (await subscription(user.token, sub.token)).sources.map((source) => source.id), POLL)
      .toEqual([ids[1], ids[2], ids[0]]);

    // Escape puts it back where it was, and nothing is saved.
    const charlie = handleOf(page, s, 'Charlie');
    await tabUntilFocused(page, charlie);
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowUp');
    expect(await rows.nth(0).textContent()).toContain('Charlie');
    await page.keyboard.press('Escape');
    expect(await live.textContent()).toBe(text(s, 'move.cancelled', { name: 'Charlie', position: 2, total: 3 }));
    expect(await rows.nth(0).textContent()).toContain('Bravo');
    expect((await subscription(user.token, sub.token)).sources.map((source) => source.id)).toEqual([
      ids[1],
      ids[2],
      ids[0],
    ]);

    // Tabbing away from a picked-up row puts it back too.
    await tabUntilFocused(page, charlie);
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    expect(await rows.nth(2).textContent()).toContain('Charlie');
    await page.keyboard.press('Tab');
    expect(await live.textContent()).toBe(text(s, 'move.cancelled', { name: 'Charlie', position: 2, total: 3 }));
    expect(await rows.nth(1).textContent()).toContain('Charlie');

    // Hide by keyboard too.
    const hide = page.getByRole('button', { name: text(s, 'actions.hideName', { name: 'Bravo' }) });
    await tabUntilFocused(page, hide);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: text(s, 'actions.showName', { name: 'Bravo' }) }).waitFor();
    expect((await subscription(user.token, sub.token)).sources[0]?.is_hidden).toBe(true);
    expect(problems).toEqual([]);
  }, 120_000);

  it('scrolls a long list while a row is dragged to the top, and explains a source removed meanwhile', async () => {
    const s = await catalog('screens/subscriptions/sources', 'en');
    const user = await t.newUser();
    const names = Array.from({ length: 12 }, (_, i) => `Server ${i + 1}`);
    const sub = await create(
      user.token,
      'Long',
      names.map((name) => `${vlessUri()}#${encodeURIComponent(name)}`),
    );
    const ids = sub.sources.map((source) => source.id);
    const { page, problems } = await openTab(PHONE, ENGLISH.locale);
    await signIn(page, user.token, 'en');
    await page.goto(`${origin}/app/subs/${sub.token}`);
    const rows = rowsOf(page, s);
    await expect.poll(() => rows.count(), POLL).toBe(12);

    // The last row's handle, held at the window's top edge: the page scrolls up until the row is first.
    const last = handleOf(page, s, 'Server 12');
    await last.scrollIntoViewIfNeeded();
    expect(await page.evaluate('window.scrollY')).toBeGreaterThan(0);
    const from = await centre(last);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x, from.y - 40, { steps: 4 });
    await page.mouse.move(from.x, 10, { steps: 8 });
    // The page scrolls a step a frame, about two screens here: give it time on a busy machine.
    await expect.poll(() => page.evaluate('window.scrollY'), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => rows.nth(0).textContent(), POLL).toContain('Server 12');
    await page.mouse.up();
    await expect
      .poll(async () => (await subscription(user.token, sub.token)).sources.map((source) => source.id), POLL)
      .toEqual([ids[11], ...ids.slice(0, 11)]);

    // Downwards too, where React moves the dragged row's own node: Server 1 dropped just above Server 3's middle,
    // with both away from the window's edges (where the page would scroll).
    await rows.nth(2).evaluate((element) => element.scrollIntoView({ block: 'center' }));
    const below = await rows.nth(3).boundingBox();
    if (!below) throw new Error('Server 3 is not on screen');
    const start = await centre(handleOf(page, s, 'Server 1'));
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x, below.y + below.height / 2 - 10, { steps: 12 });
    await page.mouse.up();
    await expect
      .poll(async () => (await subscription(user.token, sub.token)).sources.map((source) => source.id), POLL)
      .toEqual([ids[11], ids[1], ids[0], ...ids.slice(2, 11)]);

    // Removed through the API while the page still shows it: the answer is explained and the list read again.
    const gone = await t.call('DELETE', `/api/v1/subs/${sub.token}/sources`, {
      token: user.token,
      body: { source_ids: [ids[0]] },
    });
    expect(gone.statusCode, gone.body).toBe(200);
    await page.getByRole('button', { name: text(s, 'actions.removeName', { name: 'Server 1' }), exact: true }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: text(s, 'remove.confirm') })
      .click();
    await page
      .getByRole('alert')
      .filter({ hasText: text(s, 'errors.source_not_found') })
      .waitFor();
    await expect.poll(() => rows.count(), POLL).toBe(11);
    // Chromium logs the 404 answer itself; nothing else went wrong.
    expect(problems.filter((problem) => !problem.includes('status of 404'))).toEqual([]);
  }, 120_000);

  it('shows a subscription a provider manages read-only while its connection is approved', async () => {
    const s = await catalog('screens/subscriptions/sources', 'en');
    const user = await t.newUser();
    const provider = await t.newProvider();
    await requestAccess(t, provider, user.userId);
    const approved = await t.call('POST', `/api/v1/me/providers/${provider.name}/approve`, { token: user.token });
    expect(approved.statusCode, approved.body).toBe(200);
    const feed = upstream.current.add(upstreamLines(3).join('\n'));
    const created = await t.call('POST', `/api/v1/providers/${user.userId}/subs`, {
      token: provider.token,
      body: { name: 'Managed', sources: [`${vlessUri()}#Lisbon`, feed] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const sub = created.json<Subscription>();

    const { page, problems } = await openTab(DESKTOP, ENGLISH.locale);
    await signIn(page, user.token, 'en');
    await page.goto(`${origin}/app/subs/${sub.token}`);
    await page.getByText(text(s, 'managed', { provider: provider.name })).waitFor();
    const rows = rowsOf(page, s);
    await expect.poll(() => rows.count(), POLL).toBe(2);
    expect(await page.getByRole('button', { name: text(s, 'move.label', { name: 'Lisbon' }) }).count()).toBe(0);
    expect(await page.getByRole('button', { name: text(s, 'actions.removeName', { name: 'Lisbon' }) }).count()).toBe(0);
    expect(await page.getByLabel(text(s, 'add.label'), { exact: true }).count()).toBe(0);
    // Refreshing only reads the subscription, so the user may.
    await page.getByRole('button', { name: text(s, 'refresh.button') }).click();
    await page
      .getByRole('status')
      .filter({ hasText: text(s, 'refresh.report', { refreshed: 1, failed: 0, skipped: 1 }) })
      .waitFor();
    await expectAccessible(page, 'a managed subscription');

    // Once the user revokes the connection, the subscription is theirs to change.
    const revoked = await t.call('POST', `/api/v1/me/providers/${provider.name}/revoke`, { token: user.token });
    expect(revoked.statusCode, revoked.body).toBe(204);
    await page.reload();
    await handleOf(page, s, 'Lisbon').waitFor();
    await page.getByRole('button', { name: text(s, 'actions.hideName', { name: 'Lisbon' }) }).click();
    await page.getByRole('button', { name: text(s, 'actions.showName', { name: 'Lisbon' }) }).waitFor();
    expect((await subscription(user.token, sub.token)).sources[0]?.is_hidden).toBe(true);
    expect(problems).toEqual([]);
  }, 120_000);
});
