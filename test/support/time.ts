// Time in tests: real waits with a limit, for what only a real clock can show (sockets, processes, other
// instances), and a clock moved ahead, for expiries the code reads from Date so tests need not sleep through them.
import { vi } from 'vitest';

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` every 25 ms until it holds (true) or `limitMs` passes (false). */
export async function waitFor(limitMs: number, check: () => boolean | Promise<boolean>): Promise<boolean> {
  const started = Date.now();
  while (Date.now() - started <= limitMs) {
    if (await check()) return true;
    await sleep(25);
  }
  return false;
}

/**
 * Runs `work` with Date (and only Date: timers, sockets and the database keep real time) `aheadMs` in the future,
 * still advancing, as if the test had slept that long; the real clock is back afterwards.
 */
export async function withClockAhead<T>(aheadMs: number, work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + aheadMs, shouldAdvanceTime: true });
  try {
    return await work();
  } finally {
    vi.useRealTimers();
  }
}
