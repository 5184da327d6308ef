// Time from navigation start to the dashboard's sign-in screen being interactive (React has committed it and run its
// effects: the mark 'subweave:sign-in-ready'), in Debian's Chromium against the built app; numbers in docs/benchmarks.md.
import type { Browser, BrowserContext } from 'playwright-core';
import { findChromium, launchChromium } from '../test/support/chromium.js';
import { ensureDashboardBuilt } from '../test/support/dashboard-build.js';
import { startInProcess } from './in-process.js';

const RUNS = Number(process.env['RUNS'] ?? 20);

interface Sample {
  ready: number;
  domContentLoaded: number;
  transferredKb: number;
}

async function load(context: BrowserContext, url: string, cpuSlowdown: number): Promise<Sample> {
  const page = await context.newPage();
  if (cpuSlowdown > 1) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
  }
  await page.goto(url);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  const sample = await page.evaluate<Sample>(`(() => {
    const ready = performance.getEntriesByName('subweave:sign-in-ready')[0];
    const nav = performance.getEntriesByType('navigation')[0];
    const bytes = performance.getEntriesByType('resource').concat([nav])
      .reduce((sum, entry) => sum + (entry.transferSize || 0), 0);
    return { ready: ready.startTime, domContentLoaded: nav.domContentLoadedEventEnd, transferredKb: bytes / 1024 };
  })()`);
  await page.close();
  return sample;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
};

function report(name: string, samples: Sample[]): void {
  const ready = samples.map((sample) => sample.ready);
  const dcl = samples.map((sample) => sample.domContentLoaded);
  const kb = samples.map((sample) => sample.transferredKb);
  console.log(
    `${name.padEnd(34)} interactive p50 ${percentile(ready, 50).toFixed(0)} ms, p95 ${percentile(ready, 95).toFixed(0)} ms` +
      ` | DOMContentLoaded p50 ${percentile(dcl, 50).toFixed(0)} ms | transferred p50 ${percentile(kb, 50).toFixed(1)} KB`,
  );
}

const executablePath = findChromium();
if (!executablePath) throw new Error('no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');
ensureDashboardBuilt();
const service = await startInProcess({});
let browser: Browser | undefined;
try {
  browser = await launchChromium(executablePath);
  const url = `${service.base}/app/sign-in`;
  for (const cpuSlowdown of [1, 4]) {
    // Cold: a new browser profile each time, so every asset is fetched (brotli) and compiled.
    const cold: Sample[] = [];
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ locale: 'en-US' });
      cold.push(await load(context, url, cpuSlowdown));
      await context.close();
    }
    // Warm: one profile, assets from the immutable cache after the first load.
    const context = await browser.newContext({ locale: 'en-US' });
    await load(context, url, cpuSlowdown);
    const warm: Sample[] = [];
    for (let run = 0; run < RUNS; run++) warm.push(await load(context, url, cpuSlowdown));
    await context.close();
    const label = cpuSlowdown > 1 ? `, CPU ${cpuSlowdown}x slower` : '';
    report(`cold${label}`, cold);
    report(`warm${label}`, warm);
  }
} finally {
  await browser?.close();
  await service.stop();
}
