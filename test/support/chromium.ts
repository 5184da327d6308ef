// Launching Debian's Chromium for the browser tests through playwright-core; the tests skip when it is missing.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's package; never a downloaded browser. CHROMIUM_PATH overrides. */
export function findChromium(): string | null {
  const candidates = [process.env['CHROMIUM_PATH'], '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((path): path is string => Boolean(path) && existsSync(path as string)) ?? null;
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}
