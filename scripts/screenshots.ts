// Draws the screenshots of the link page under docs/ (phone and desktop, light and dark, Persian) in Debian's Chromium,
// from the real service on a fresh SQLite database: `npx tsx scripts/screenshots.ts` (CHROMIUM_PATH overrides
// /usr/bin/chromium).
import { randomUUID } from 'node:crypto';
import type { BrowserContextOptions } from 'playwright-core';
import { startInProcess } from '../bench/in-process.js';
import type { Branding } from '../src/modules/branding/branding.js';
import { createUser } from '../src/modules/users/users.service.js';
import { findChromium, launchChromium } from '../test/support/chromium.js';

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
const CITIES = ['Amsterdam', 'Frankfurt', 'Helsinki', 'Istanbul', 'Warsaw', 'Tallinn'];

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
  const service = await startInProcess({ PUBLIC_BASE_URL: 'https://subs.example.com' });
  const browser = await launchChromium(executablePath);
  try {
    await service.context.branding.update(BRANDING);
    const owner = await createUser(service.database.db, 42);
    const created = await fetch(`${service.base}/api/v1/subs`, {
      method: 'POST',
      headers: { 'API-Token': owner.api_token, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Family VPN',
        description: 'Home, office and travel servers',
        sources: CITIES.map(
          (city) => `vless://${randomUUID()}@${city.toLowerCase()}.example.com:443?security=tls#${city}`,
        ),
        userinfo: {
          mode: 'fixed',
          upload: 3 * 1024 ** 3,
          download: 17 * 1024 ** 3,
          total: 100 * 1024 ** 3,
          expire: Math.floor(Date.now() / 1000) + 24 * DAY,
        },
      }),
    });
    if (created.status !== 201) throw new Error(`creating the subscription: ${created.status} ${await created.text()}`);
    const { token } = (await created.json()) as { token: string };
    for (const shot of SHOTS) {
      const context = await browser.newContext({ timezoneId: 'UTC', ...shot.options });
      const page = await context.newPage();
      await page.goto(`${service.base}/sub/${token}${shot.query ?? ''}`);
      await page.waitForSelector('html.ready');
      await page.screenshot({ path: `docs/${shot.file}`, fullPage: true });
      await context.close();
      console.log(`docs/${shot.file}`);
    }
  } finally {
    await browser.close();
    await service.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
