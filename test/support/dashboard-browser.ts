// What every dashboard browser suite shares: the built app on a known loopback port, Chromium tabs that record CSP
// violations, console errors and outside requests, the screens' catalogs, signing in, and axe on every screen.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousAxeViolations } from './axe.js';
import { launchChromium } from './chromium.js';
import { ensureDashboardBuilt } from './dashboard-build.js';
import { useTestApp, type TestApp } from './harness.js';

const ROOT = join(import.meta.dirname, '../..');

export const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 360, height: 740 },
] as const;

export const LANGUAGES = [
  { code: 'en', locale: 'en-US', dir: 'ltr' },
  { code: 'fa', locale: 'fa-IR', dir: 'rtl' },
] as const;

export type Strings = Record<string, Record<string, unknown>>;

/** A catalog in one language as the app shows it: `folder` is relative to web/src (`screens/sign-in`, `admin`, ...). */
export async function catalog(folder: string, language: string): Promise<Strings> {
  const file = pathToFileURL(join(ROOT, 'web/src', folder, 'strings', `${language}.ts`)).href;
  return ((await import(file)) as Record<string, Strings>)[language] as Strings;
}

/** One string of a catalog by its dotted key, with `{{placeholders}}` filled in. */
export function text(strings: Strings, path: string, values: Record<string, string | number> = {}): string {
  const found = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], strings);
  if (typeof found !== 'string') throw new Error(`no string at ${path}`);
  return found.replace(/\{\{(\w+)\}\}/g, (_all, name: string) => String(values[name]));
}

/** A count as the dashboard writes it in `language`: grouped, in the language's digits (Persian ۱۲, not 12). */
export function count(language: string, value: number): string {
  return new Intl.NumberFormat(language).format(value);
}

/** An id or a line number as the dashboard writes it in `language`: its digits, never grouped. */
export function digits(language: string, value: number | string): string {
  const format = new Intl.NumberFormat(language, { useGrouping: false });
  return String(value).replace(/\d/g, (digit) => format.format(Number(digit)));
}

const RECORD_VIOLATIONS = `document.addEventListener('securitypolicyviolation', (event) => {
  console.error('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI);
});`;

export interface Tab {
  page: Page;
  /** CSP violations, console errors, page errors, failed and outside requests: a test expects it empty. */
  problems: string[];
}

export interface Dashboard {
  t: TestApp;
  origin: string;
  openTab(viewport: { width: number; height: number }, locale: string): Promise<Tab>;
  /** Signs in with an API token on the sign-in screen and waits for the subscription list. */
  signIn(page: Page, token: string, language: string): Promise<void>;
  expectAccessible(page: Page, screen: string): Promise<void>;
}

/**
 * Starts the app (SQLite) on `port` with PUBLIC_BASE_URL set to it, since the session's Origin rule compares the two,
 * and one Chromium for the suite. Call inside a describe block; `port` comes from freePort() at the file's top.
 */
export function useDashboard(port: number, env: Record<string, string>, chromiumPath: string): Dashboard {
  const origin = `http://127.0.0.1:${port}`;
  const t = useTestApp('sqlite', { PUBLIC_BASE_URL: origin, ...env });
  const contexts: BrowserContext[] = [];
  let browser: Browser | undefined;

  beforeAll(async () => {
    ensureDashboardBuilt();
    browser = await launchChromium(chromiumPath);
    await t.app.listen({ host: '127.0.0.1', port });
  }, 180_000);
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    // Sockets the browser or this process's fetch kept alive would hold the app's close (in useTestApp's afterAll,
    // which runs after this one) open.
    t.app?.server.closeAllConnections();
  });

  async function openTab(viewport: { width: number; height: number }, locale: string): Promise<Tab> {
    if (!browser) throw new Error('Chromium is not running');
    // Reduced motion: axe measures colours after dialogs have finished appearing, not halfway through a fade.
    const context = await browser.newContext({ viewport, locale, serviceWorkers: 'block', reducedMotion: 'reduce' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    contexts.push(context);
    await context.addInitScript({ content: RECORD_VIOLATIONS });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      // Chromium logs every 401 answer; signed out, GET /api/v1/session answers 401 by contract (docs/api.md).
      if (message.type() === 'error' && !message.text().includes('status of 401')) {
        problems.push(`console: ${message.text()}`);
      }
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => {
      // A navigation cancels the requests of the page it leaves; that is not a failure.
      if (request.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`request failed: ${request.url()}`);
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(origin)) problems.push(`outside request: ${request.url()}`);
    });
    return { page, problems };
  }

  async function signIn(page: Page, token: string, language: string): Promise<void> {
    const strings = await catalog('screens/sign-in', language);
    await page.goto(`${origin}/app/sign-in`);
    const field = page.getByLabel(text(strings, 'token'), { exact: true });
    await field.fill(token);
    await field.press('Enter');
    await page.waitForURL(`${origin}/app/subs`);
  }

  async function expectAccessible(page: Page, screen: string): Promise<void> {
    const problems = await seriousAxeViolations(page);
    expect(
      problems.map((p) => `${p.impact} ${p.id}: ${p.targets.join(', ')}`),
      `axe on ${screen}`,
    ).toEqual([]);
  }

  return { t, origin, openTab, signIn, expectAccessible };
}
