// Draws the screenshots of the link page under docs/ (phone and desktop, light and dark, Persian) in Debian's Chromium:
// `npx tsx scripts/screenshots.ts` (CHROMIUM_PATH overrides /usr/bin/chromium).
import type { BrowserContextOptions } from 'playwright-core';
import type { Branding } from '../src/modules/branding/branding.js';
import { findChromium, launchChromium } from '../test/support/chromium.js';
import { servePageViews } from './support/page-views.js';

const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36';
/** At a device scale of 1, so the full-page images stay small in the repository. */
const PHONE: BrowserContextOptions = {
  viewport: { width: 360, height: 740 },
  deviceScaleFactor: 1,
  isMobile: true,
  hasTouch: true,
  userAgent: ANDROID_UA,
};
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };

const LOGO = `data:image/svg+xml;base64,${Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="#0a7d5a"/>' +
    '<path d="M9 17l5 5 9-11" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round"/></svg>',
).toString('base64')}`;
const BRANDING: Branding = {
  service_name: 'North VPN',
  logo: LOGO,
  accent_color: '#0a7d5a',
  support_url: 'https://help.example.com/',
};
const DAY = 86_400;

const SHOTS: Array<{ file: string; options: BrowserContextOptions; query?: string }> = [
  { file: 'link-page-phone-light.png', options: { ...PHONE, colorScheme: 'light', locale: 'en-US' } },
  { file: 'link-page-phone-dark.png', options: { ...PHONE, colorScheme: 'dark', locale: 'en-US' } },
  { file: 'link-page-desktop-light.png', options: { ...DESKTOP, colorScheme: 'light', locale: 'en-US' } },
  { file: 'link-page-desktop-dark.png', options: { ...DESKTOP, colorScheme: 'dark', locale: 'en-US' } },
  { file: 'link-page-phone-persian.png', options: { ...PHONE, colorScheme: 'light', locale: 'fa-IR' } },
];

async function main(): Promise<void> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('no Chromium found: apt-get install chromium, or set CHROMIUM_PATH');
  const now = Math.floor(Date.now() / 1000);
  const views = await servePageViews(
    {
      name: 'Family VPN',
      description: 'Home, office and travel servers',
      servers: 12,
      updatedAt: new Date((now - 3 * 3600) * 1000).toISOString(),
      url: 'https://subs.example.com/sub/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdEf',
      usage: { upload: 3 * 1024 ** 3, download: 17 * 1024 ** 3, total: 100 * 1024 ** 3, expire: now + 24 * DAY },
      supportUrl: null,
      webPageUrl: null,
      announce: null,
    },
    BRANDING,
  );
  const browser = await launchChromium(executablePath);
  try {
    for (const shot of SHOTS) {
      const context = await browser.newContext({ timezoneId: 'UTC', ...shot.options });
      const page = await context.newPage();
      await page.goto(`${views.origin}${views.path}${shot.query ?? ''}`);
      await page.waitForSelector('html.ready');
      await page.screenshot({ path: `docs/${shot.file}`, fullPage: true });
      await context.close();
      console.log(`docs/${shot.file}`);
    }
  } finally {
    await browser.close();
    await views.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
