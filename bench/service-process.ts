// Benchmarks that run the built service in a process of their own wait for it here before they measure.
import type { ChildProcess } from 'node:child_process';

/** Resolves once `base`/healthz answers 200; throws when the process exits first or after `attempts` tries 100 ms apart. */
export async function waitUntilServing(base: string, child: ChildProcess, attempts = 300): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const ok = await fetch(`${base}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    if (attempt > attempts || child.exitCode !== null) throw new Error('the service did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
