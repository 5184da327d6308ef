// Time in tests: real waits with a limit, for what only a real clock can show (sockets, processes, other
// instances), and a clock moved ahead, for expiries the code reads from Date so tests need not sleep through them.
import { vi } from 'vitest';

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export { waitFor } from '../../scripts/support/private-services.js';

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
