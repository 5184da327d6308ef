// Loads several servers with wrk in alternating slices, so a slow or fast spell of the machine falls on all of them alike instead of on whichever ran at the time.
import { median } from '../scripts/support/stats.js';
import { cpuTimes } from './link-seed.js';
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
  /**
   * Microseconds of CPU per request in the process's own code and in the kernel (sockets, copies). How the two weigh
   * differs from host to host, and with it every ratio to the bare server (docs/benchmarks.md).
   */
  user_us_per_request: number;
  system_us_per_request: number;
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
  const runs = targets.map(() => ({ results: [] as WrkResult[], user: 0, system: 0 }));
  for (let slice = 0; slice < options.slices; slice++) {
    for (const [i, target] of targets.entries()) {
      const before = cpuTimes(target.pid);
      const result = await wrk(target.url, {
        connections: options.connections,
        seconds: sliceSeconds,
        headers: target.headers ?? {},
      });
      const after = cpuTimes(target.pid);
      runs[i]!.user += after.user - before.user;
      runs[i]!.system += after.system - before.system;
      runs[i]!.results.push(result);
    }
  }
  return runs.map(({ results, user, system }) => {
    const cpu = user + system;
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
      user_us_per_request: Number(((user / requests) * 1e6).toFixed(1)),
      system_us_per_request: Number(((system / requests) * 1e6).toFixed(1)),
      slices: perSecond,
    };
  });
}

/** The median user and system microseconds per request of one server over several rounds. */
export function cpuPerRequest(loads: TargetLoad[]): { user: number; system: number } {
  return {
    user: median(loads.map((load) => load.user_us_per_request)),
    system: median(loads.map((load) => load.system_us_per_request)),
  };
}
