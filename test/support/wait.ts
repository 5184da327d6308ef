// Waiting on real time, for what only a real clock can show (sockets, processes, other instances): polls with a limit.
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
