// Cross-instance staleness: after a write acknowledged by one instance, how often the other still serves the old
// public link at once, and how long until it serves the new one.
import { setTimeout as sleep } from 'node:timers/promises';
import { call } from './client.js';
import type { ServiceInstance } from './instances.js';

export interface StalenessTarget {
  apiToken: string;
  token: string;
  /** The subscription's one config (no fragment) and its source id. */
  data: string;
  configId: string;
}

export interface StalenessResult {
  trials: number;
  /** Trials where the first read on the other instance, right after the acknowledgement, was the old link. */
  staleFirstReads: number;
  /** Per trial: ms from the acknowledgement to the first read on the other instance that served the new link. */
  windows: number[];
  /** Trials where the other instance never agreed within the limit, or the write itself failed. */
  failed: number;
}

const AGREE_LIMIT_MS = 5_000;

export async function measureStaleness(
  instances: [ServiceInstance, ServiceInstance],
  target: StalenessTarget,
  trials: number,
  label: string,
): Promise<StalenessResult> {
  const result: StalenessResult = { trials, staleFirstReads: 0, windows: [], failed: 0 };
  const link = `/sub/${target.token}?format=plain`;
  for (let trial = 0; trial < trials; trial++) {
    const [writer, reader] = trial % 2 === 0 ? instances : [instances[1], instances[0]];
    await call(reader.origin, link); // the reader now holds the current link in its render cache
    const comment = `${label}-${trial}`;
    const written = await call(writer.origin, `/api/v1/subs/${target.token}/config`, {
      method: 'PATCH',
      token: target.apiToken,
      json: { config_id: target.configId, comment },
    });
    if (!written.ok) {
      result.failed += 1;
      continue;
    }
    const acknowledgedAt = performance.now();
    const expected = `${target.data}#${comment}`;
    let first = true;
    let agreed = false;
    while (performance.now() - acknowledgedAt < AGREE_LIMIT_MS) {
      const read = await call(reader.origin, link);
      if (read.ok && read.body === expected) {
        result.windows.push(Math.round((performance.now() - acknowledgedAt) * 10) / 10);
        agreed = true;
        break;
      }
      if (first) result.staleFirstReads += 1;
      first = false;
      await sleep(5);
    }
    if (!agreed) result.failed += 1;
    await sleep(20);
  }
  return result;
}
