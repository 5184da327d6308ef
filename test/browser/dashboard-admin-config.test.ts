// The admin console's formats, branding and webhooks screens in headless Chromium against the built app on SQLite:
// a rule and a template refused with the error at the field and line, a rule preview; branding saved (keyboard alone)
// then seen in the dashboard header and on the link page; a webhook created, tested against a real local receiver
// (verified with the standardwebhooks package), redelivered, rotated, edited, disabled by the service and deleted.
// At 1280 and 360 px, in English and Persian, light and dark, with axe-core and no CSP violation or console error.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { findChromium } from '../support/chromium.js';
import { digits, catalog, text, useDashboard, type Strings } from '../support/dashboard-browser.js';
import { startReceiver, verifyDelivery, type WebhookReceiver } from '../support/webhook-receiver.js';
import { subsApi, vlessUri } from '../support/factories.js';
import { freePort } from '../../scripts/support/private-services.js';

const executablePath = findChromium();
const SKIP_REASON =
  'dashboard admin config browser tests skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)';
if (!executablePath) console.warn(SKIP_REASON);

const ROOT = join(import.meta.dirname, '../..');
const ADMIN_SECRET = 'dashboard-admin-config-secret-of-at-least-32-characters';
/** DASHBOARD_SCREENSHOTS=1 rewrites the screenshots under docs/ that docs/dashboard.md shows. */
const SAVE_SCREENSHOTS = process.env['DASHBOARD_SCREENSHOTS'] === '1';
const PORT = await freePort();

const CASES = [
  { viewport: { name: 'desktop', width: 1280, height: 800 }, language: { code: 'en', locale: 'en-US', dir: 'ltr' } },
  { viewport: { name: 'phone', width: 360, height: 740 }, language: { code: 'fa', locale: 'fa-IR', dir: 'rtl' } },
] as const;

const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="14" fill="#0a7d5a"/></svg>';

(executablePath ? describe : describe.skip)(executablePath ? 'admin formats, branding, webhooks' : SKIP_REASON, () => {
  const { t, origin, openTab, expectAccessible } = useDashboard(
    PORT,
    { ADMIN_SECRET, WEBHOOK_POLL_MS: '20', WEBHOOK_RETRY_DELAYS: '0.05,0.05' },
    executablePath as string,
  );
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    t.context.webhookDelivery.start();
  });
  afterAll(async () => {
    await t.context.webhookDelivery.stop();
    await receiver?.close();
  });

  /** Chromium logs each 400 answer as a console error: the refusals a test provokes on purpose, and nothing else. */
  const refusals = (count: number) =>
    Array.from(
      { length: count },
      () => 'console: Failed to load resource: the server responded with a status of 400 (Bad Request)',
    );

  /** Opens an admin screen through the secret gate, keyboard alone. */
  async function openConsole(page: Page, screen: string, language: string): Promise<void> {
    const admin = await catalog('admin', language);
    await page.goto(`${origin}/app/admin/${screen}`);
    const field = page.getByLabel(text(admin, 'gate.secret'), { exact: true });
    await field.fill(ADMIN_SECRET);
    await field.press('Enter');
    await page.getByRole('heading', { name: text(admin, `nav.${screen}`), level: 3 }).waitFor();
  }

  async function tabUntilFocused(page: Page, target: Locator): Promise<void> {
    for (let press = 0; press < 150; press++) {
      if (await target.evaluate((element) => element === element.ownerDocument.activeElement)) return;
      await page.keyboard.press('Tab');
    }
    throw new Error('Tab never reached the element');
  }

  /** Axe in light, then dark, then back to light; the page must not scroll sideways. */
  async function checkBothSchemes(page: Page, shell: Strings, screen: string): Promise<void> {
    // The pointer leaves what it clicked: axe judges the screen at rest, not hover colours.
    await page.mouse.move(0, 0);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await expectAccessible(page, screen);
    await page.getByRole('button', { name: text(shell, 'colorScheme.toDark') }).click();
    await page.mouse.move(0, 0);
    await expectAccessible(page, `${screen} (dark)`);
    await page.getByRole('button', { name: text(shell, 'colorScheme.toLight') }).click();
  }

  async function snap(page: Page, name: string, viewport: string, language: string, dark = false): Promise<void> {
    if (!SAVE_SCREENSHOTS) return;
    const shell = await catalog('shell', language);
    if (dark) await page.getByRole('button', { name: text(shell, 'colorScheme.toDark') }).click();
    await page.mouse.move(0, 0);
    await page.screenshot({
      path: join(ROOT, 'docs', `dashboard-admin-${name}${dark ? '-dark' : ''}-${viewport}-${language}.png`),
    });
    if (dark) await page.getByRole('button', { name: text(shell, 'colorScheme.toLight') }).click();
  }

  for (const { viewport, language } of CASES) {
    it(`formats: a refused rule and template show their errors in place; the preview names format and rule (${viewport.name}, ${language.code})`, async () => {
      const shell = await catalog('shell', language.code);
      const formats = await catalog('admin/screens/formats', language.code);
      const { page, problems } = await openTab(viewport, language.locale);
      await openConsole(page, 'formats', language.code);
      expect(await page.evaluate('document.documentElement.dir')).toBe(language.dir);

      // A repeated id: the API names rules[1].id, the screen puts its message under that field of rule 2.
      const second = page.getByRole('region', {
        name: text(formats, 'rules.rule', { number: digits(language.code, 2) }),
      });
      const secondId = second.getByLabel(text(formats, 'rules.id'), { exact: true });
      const firstId = await page
        .getByRole('region', { name: text(formats, 'rules.rule', { number: digits(language.code, 1) }) })
        .getByLabel(text(formats, 'rules.id'), { exact: true })
        .inputValue();
      const ownId = await secondId.inputValue();
      await secondId.fill(firstId);
      await page.getByRole('button', { name: text(formats, 'rules.save') }).click();
      await second.getByText(`repeats the id '${firstId}'`).waitFor();
      expect(await secondId.getAttribute('aria-invalid')).toBe('true');
      await secondId.fill(ownId);

      // Keyboard alone: rule 1 moves down and keeps the focus; moved back up, the list is as it was.
      const firstCard = page.getByRole('region', {
        name: text(formats, 'rules.rule', { number: digits(language.code, 1) }),
      });
      const moveDown = firstCard.getByRole('button', { name: text(formats, 'rules.down') });
      await tabUntilFocused(page, moveDown);
      await page.keyboard.press('Enter');
      await expect.poll(() => secondId.inputValue()).toBe(firstId);
      const focused = () => page.evaluate<string>("document.activeElement?.textContent ?? ''");
      await expect.poll(focused).toBe(text(formats, 'rules.down'));
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter');
      await expect.poll(() => secondId.inputValue()).toBe(ownId);
      // First again, its "Move up" is off: the focus waits on its "Move down".
      await expect.poll(focused).toBe(text(formats, 'rules.down'));

      // The preview tries the list as edited: a new first rule blocking curl decides before saving anything.
      const userAgent = page.getByLabel(text(formats, 'preview.userAgent'), { exact: true });
      await userAgent.fill('SFA/1.11.4 (1114; sing-box 1.11.4; language en_US)');
      await userAgent.press('Enter');
      await page.getByText(text(formats, 'preview.answer', { format: 'sing-box-1.11' })).waitFor();
      await page.getByText(text(formats, 'preview.rule', { rule: 'sing-box' })).waitFor();
      await page.getByRole('button', { name: text(formats, 'rules.add') }).click();
      const added = page.getByRole('region', {
        name: text(formats, 'rules.rule', { number: digits(language.code, 7) }),
      });
      await added.getByLabel(text(formats, 'rules.value'), { exact: true }).fill('curl');
      await added.getByLabel(text(formats, 'rules.result'), { exact: true }).selectOption('block');
      await userAgent.fill('curl/8.5.0');
      await userAgent.press('Enter');
      await page.getByText(text(formats, 'preview.answer', { format: 'block' })).waitFor();
      const saved = await t.admin('GET', '/format-rules');
      expect(saved.json<{ rules: unknown[] }>().rules).toHaveLength(6);
      await added.getByRole('button', { name: text(formats, 'rules.remove') }).click();
      await page.getByRole('button', { name: text(formats, 'rules.save') }).click();
      await page.getByText(text(formats, 'rules.saved')).waitFor();

      // A template that is not JSON: the refusal sits under the field, with the line the parser names.
      const template = page.getByLabel(text(formats, 'templates.label', { format: 'sing-box' }), { exact: true });
      await template.fill('{\n  "log": {},\n  outbounds: []\n}\n');
      await page.getByRole('button', { name: text(formats, 'templates.save') }).click();
      await page
        .getByText(/not valid JSON/)
        .first()
        .waitFor();
      expect(await template.getAttribute('aria-invalid')).toBe('true');
      await page.getByText(text(formats, 'templates.line', { line: digits(language.code, 3) })).waitFor();
      await page.getByText('outbounds: []', { exact: true }).waitFor();
      expect((await t.admin('GET', '/templates/sing-box')).json<{ builtin: boolean }>().builtin).toBe(true);
      await template.scrollIntoViewIfNeeded();
      await snap(page, 'formats', viewport.name, language.code);

      await checkBothSchemes(page, shell, 'formats');
      expect(problems).toEqual(refusals(2));
    }, 120_000);

    it(`branding: saved by keyboard, shown in the header, the live sample and the link page (${viewport.name}, ${language.code})`, async () => {
      const shell = await catalog('shell', language.code);
      const branding = await catalog('admin/screens/branding', language.code);
      const name = `North VPN ${language.code}`;
      const { page, problems } = await openTab(viewport, language.locale);
      await openConsole(page, 'branding', language.code);

      // A file that says PNG but is not: the API refuses it and its reason shows under the logo field.
      const logoInput = page.locator('input[type="file"]');
      await logoInput.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('not a png') });
      await page.getByRole('button', { name: text(branding, 'save') }).click();
      // The API's own reason, under the field it names (the pages show the API's messages as they are).
      await page.getByText(/^The logo /).waitFor();
      expect(
        await page.getByRole('button', { name: text(branding, 'logo'), exact: true }).getAttribute('aria-invalid'),
      ).toBe('true');
      const refusedLogo = await t.admin('GET', '/branding');
      expect(refusedLogo.json<{ logo: string | null }>().logo).toBeNull();
      await logoInput.setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(LOGO_SVG) });

      const accent = page.getByLabel(text(branding, 'accent'), { exact: true });
      await accent.fill('#0a7d5a');
      await accent.press('Escape');

      // The name and the save, keyboard alone.
      const nameField = page.getByLabel(text(branding, 'serviceName'), { exact: true });
      await tabUntilFocused(page, nameField);
      await page.keyboard.type(name);
      await page.keyboard.press('Enter');
      await page.getByText(text(branding, 'saved')).waitFor();

      const stored = (await t.admin('GET', '/branding')).json<Record<string, string | null>>();
      expect(stored['service_name']).toBe(name);
      expect(stored['accent_color']).toBe('#0a7d5a');
      expect(stored['logo']).toBe(`data:image/svg+xml;base64,${Buffer.from(LOGO_SVG).toString('base64')}`);

      // The dashboard's own header follows at once: name, logo, and filled buttons in the accent.
      await page.getByRole('heading', { level: 1, name }).waitFor();
      expect(await page.locator('header img').getAttribute('src')).toBe(stored['logo']);
      const saveButton = page.getByRole('button', { name: text(branding, 'save') });
      expect(
        await saveButton.evaluate(
          (element) => element.ownerDocument.defaultView?.getComputedStyle(element).backgroundColor,
        ),
      ).toBe('rgb(10, 125, 90)');
      await snap(page, 'branding', viewport.name, language.code);
      if (viewport.name === 'desktop') await snap(page, 'branding', viewport.name, language.code, true);
      await checkBothSchemes(page, shell, 'branding');

      // The link page of any subscription shows it too.
      const sub = await subsApi(t).create([vlessUri()]);
      await page.goto(`${origin}/sub/${sub.token}`);
      await page.getByText(name).first().waitFor();
      expect(await page.locator(`img[src="${stored['logo']}"]`).count()).toBeGreaterThan(0);

      expect(problems).toEqual(refusals(1));
      const cleared = await t.admin('PUT', '/branding', { service_name: null, logo: null, accent_color: null });
      expect(cleared.statusCode, cleared.body).toBe(200);
    }, 120_000);

    it(`webhooks: create (secret once), test to a real receiver, redeliver, rotate, edit, disabled reason, delete (${viewport.name}, ${language.code})`, async () => {
      const shell = await catalog('shell', language.code);
      const hooks = await catalog('admin/screens/webhooks', language.code);
      const path = `/hook-${viewport.name}-${language.code}`;
      const url = `${receiver.origin}${path}`;
      const { page, problems } = await openTab(viewport, language.locale);
      await openConsole(page, 'webhooks', language.code);

      const create = page.getByRole('region', { name: text(hooks, 'form.createTitle') });
      // A URL the service refuses (a password in it): why, once, at the field and in this language; no banner.
      const urlField = create.getByRole('textbox', { name: text(hooks, 'form.url'), exact: true });
      await urlField.fill('https://user:secret@example.com/hook');
      await create.getByRole('button', { name: text(hooks, 'form.create') }).click();
      const refusal = create.getByText(text(hooks, 'form.urlRefused.credentials'), { exact: true });
      await refusal.waitFor();
      expect(await refusal.count()).toBe(1);
      expect(await urlField.getAttribute('aria-invalid')).toBe('true');
      expect(await create.getByRole('alert').count()).toBe(0);
      expect(await create.textContent()).not.toContain('credentials');
      await urlField.fill(url);
      await create.getByLabel(text(hooks, 'form.description'), { exact: true }).fill('billing bot');
      await create.getByRole('button', { name: text(hooks, 'form.create') }).click();
      const createdNotice = page.getByRole('alert').filter({ hasText: text(hooks, 'secret.createdTitle') });
      const secret = (await createdNotice.locator('pre').textContent()) ?? '';
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
      await snap(page, 'webhooks', viewport.name, language.code);
      await createdNotice.getByRole('button', { name: text(hooks, 'secret.done') }).click();
      await expect.poll(() => createdNotice.count()).toBe(0);

      // A test event reaches the receiver signed with that secret, and the log shows the attempt.
      const card = page.getByRole('article', { name: url });
      await card.getByRole('button', { name: text(hooks, 'card.test') }).click();
      await expect.poll(() => receiver.at(path).length, { timeout: 15_000 }).toBe(1);
      const first = receiver.at(path)[0]!;
      const event = verifyDelivery(first, secret);
      expect(event.type).toBe('webhook.test');
      const webhookId = String(event.data['webhook_id']);
      const log = card.getByRole('region', { name: text(hooks, 'deliveries.title') });
      const delivered = log.getByText(text(hooks, 'deliveries.status.delivered'), { exact: true });
      await expect
        .poll(
          async () => {
            await log.getByRole('button', { name: text(hooks, 'deliveries.refresh') }).click();
            return delivered.count();
          },
          { timeout: 15_000 },
        )
        .toBe(1);
      const attempts = log.getByRole('region', {
        name: text(hooks, 'deliveries.attemptsLabel', { event: 'webhook.test' }),
      });
      expect(await attempts.locator('tbody tr').first().textContent()).toContain('200');
      expect(await attempts.locator('tbody tr').first().textContent()).toContain('ok');
      await checkBothSchemes(page, shell, 'webhooks with a delivery');

      // Redeliver: the same event (webhook-id) again.
      await log.getByRole('button', { name: text(hooks, 'deliveries.redeliver') }).click();
      await expect.poll(() => receiver.at(path).length, { timeout: 15_000 }).toBe(2);
      expect(receiver.at(path)[1]!.headers['webhook-id']).toBe(first.headers['webhook-id']);

      // Rotate: the new secret is shown once; the next delivery verifies with the new one and the old one.
      await card.getByRole('button', { name: text(hooks, 'card.rotate') }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: text(hooks, 'card.rotateConfirm') })
        .click();
      const rotatedNotice = card.getByRole('alert').filter({ hasText: text(hooks, 'secret.rotatedTitle') });
      const rotated = (await rotatedNotice.locator('pre').textContent()) ?? '';
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      expect(await rotatedNotice.textContent()).toContain(text(hooks, 'secret.once'));
      await rotatedNotice.getByRole('button', { name: text(hooks, 'secret.done') }).click();
      await card.getByRole('button', { name: text(hooks, 'card.test') }).click();
      await expect.poll(() => receiver.at(path).length, { timeout: 15_000 }).toBe(3);
      const third = receiver.at(path)[2]!;
      expect(verifyDelivery(third, rotated).type).toBe('webhook.test');
      expect(verifyDelivery(third, secret).type).toBe('webhook.test');

      // Edit the description.
      await card.getByRole('button', { name: text(hooks, 'card.edit') }).click();
      await card.getByLabel(text(hooks, 'form.description'), { exact: true }).fill('billing bot, eu');
      await card.getByRole('button', { name: text(hooks, 'form.save') }).click();
      await card.getByText('billing bot, eu', { exact: true }).waitFor();
      const listed = (await t.admin('GET', '/webhooks')).json<Array<{ id: string; description: string }>>();
      expect(listed.find((w) => w.id === webhookId)?.description).toBe('billing bot, eu');

      // An endpoint the service disabled says why.
      const reason = 'no successful delivery for 3 days and 10 failed messages';
      await t.database.db
        .updateTable('webhook_endpoints')
        .set({ disabled_reason: reason })
        .where('id', '=', webhookId)
        .execute();
      await page.reload();
      await card.getByText(text(hooks, 'card.disabledReason', { reason })).waitFor();
      await expectAccessible(page, 'webhooks with a disabled reason');

      // Delete, confirmed.
      await card.getByRole('button', { name: text(hooks, 'card.remove') }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: text(hooks, 'card.removeConfirm') })
        .click();
      await expect.poll(() => card.count()).toBe(0);
      const after = (await t.admin('GET', '/webhooks')).json<Array<{ id: string }>>();
      expect(after.some((w) => w.id === webhookId)).toBe(false);

      expect(problems).toEqual(refusals(1));
    }, 120_000);
  }
});
