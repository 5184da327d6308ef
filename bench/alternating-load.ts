// Loads several servers with wrk in alternating slices, so a slow or fast spell of the machine falls on all of them alike instead of on whichever ran at the time.
import { cpuSeconds } from './link-seed.js';
import { wrk, type WrkResult } from './wrk.js';

/** A server to load: its URL, its process (for the CPU it spends), the request headers wrk sends. */
export interface LoadTarget {
  url: string;
  pid: number;
  headers?: Record<string, string>;
}

export interface AlternatingOptions {
  connections: number;
  /** Seconds of load per target, in all. */
  seconds: number;
  /** In how many slices each target's seconds are given, taking turns with the others. */
  slices: number;
}

export interface TargetLoad extends WrkResult {
  cpu_seconds: number;
  /** Requests answered per CPU second the process spent: on a machine others load, this depends less on the scheduler. */
  requests_per_cpu_second: number;
  /** Requests/s of each slice, in order. */
  slices: number[];
}

/**
 * Target 1, target 2, ..., target 1, target 2, ... for `slices` turns of `seconds / slices` each. Requests/s is what
 * the target answered over all its slices; p50 is the median of the slices' p50s and p99 the highest slice p99.
 */
export async function loadInTurns(targets: LoadTarget[], options: AlternatingOptions): Promise<TargetLoad[]> {
  const sliceSeconds = options.seconds / options.slices;
  if (!Number.isInteger(sliceSeconds) || sliceSeconds < 1)
    throw new Error('wrk takes whole seconds: make the seconds a multiple of the slices');
  const runs = targets.map(() => ({ results: [] as WrkResult[], cpu: 0 }));
  for (let slice = 0; slice < options.slices; slice++) {
    for (const [i, target] of targets.entries()) {
      const before = cpuSeconds(target.pid);
      const result = await wrk(target.url, {
        connections: options.connections,
        seconds: sliceSeconds,
        headers: target.headers ?? {},
      });
      runs[i]!.cpu += cpuSeconds(target.pid) - before;
      runs[i]!.results.push(result);
    }
  }
  return runs.map(({ results, cpu }) => {
    const perSecond = results.map((result) => result.requests_per_second);
    const requests = perSecond.reduce((sum, value) => sum + value * sliceSeconds, 0);
    const p50s = results.map((result) => result.p50_ms).sort((a, b) => a - b);
    return {
      requests_per_second: Math.round(requests / options.seconds),
      p50_ms: p50s[Math.floor(p50s.length / 2)]!,
      p99_ms: Math.max(...results.map((result) => result.p99_ms)),
      errors: results.reduce((sum, result) => sum + result.errors, 0),
      cpu_seconds: Number(cpu.toFixed(2)),
      requests_per_cpu_second: Math.round(requests / cpu),
      slices: perSecond,
    };
  });
}
