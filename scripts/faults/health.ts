// When an instance answers "normally" during the fault run, and how long after a fault ends until both do.
import { setTimeout as sleep } from 'node:timers/promises';
import { call, json } from './client.js';
import type { ServiceInstance } from './instances.js';

export interface Probe {
  apiToken: string;
  /** A subscription of the probe user with one external feed. */
  token: string;
}

export interface NormalCheck {
  /** Redis must be reported `ok` (it is running). */
  redis: boolean;
  /** A refresh of the probe's external feed must succeed (the upstream is fine). */
  upstream: boolean;
}

/** readyz 200 with the database ok (and Redis ok when asked), an authenticated read, and optionally a good refresh. */
export async function answersNormally(instance: ServiceInstance, probe: Probe, check: NormalCheck): Promise<boolean> {
  const ready = await call(instance.origin, '/readyz');
  if (ready.status !== 200) return false;
  const health = json<{ database: string; redis: string }>(ready);
  if (health.database !== 'ok' || (check.redis && health.redis !== 'ok')) return false;
  if (!(await call(instance.origin, '/api/v1/subs', { token: probe.apiToken })).ok) return false;
  if (!check.upstream) return true;
  const refreshed = await call(instance.origin, `/api/v1/subs/${probe.token}/refresh`, {
    method: 'POST',
    token: probe.apiToken,
  });
  return refreshed.ok && json<{ failed: number }>(refreshed).failed === 0;
}

/** Milliseconds from `since` until every instance answers normally, or null after `limitMs`. */
export async function recoveredAfter(
  instances: ServiceInstance[],
  probe: Probe,
  check: NormalCheck,
  since: number,
  limitMs = 60_000,
): Promise<number | null> {
  const pending = new Set(instances);
  while (Date.now() - since < limitMs) {
    for (const instance of [...pending]) if (await answersNormally(instance, probe, check)) pending.delete(instance);
    if (pending.size === 0) return Date.now() - since;
    await sleep(50);
  }
  return null;
}
