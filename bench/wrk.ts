// Runs wrk (Debian package) against a URL and reads its summary: a load generator faster than the server it measures.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { LOAD_CPUS, onCpus } from './cpu-pinning.js';

const run = promisify(execFile);

export interface WrkOptions {
  connections?: number;
  seconds?: number;
  threads?: number;
  headers?: Record<string, string>;
  /** A Lua script for wrk's `-s` (for example one that rotates through several paths). */
  script?: string;
}

export interface WrkResult {
  requests_per_second: number;
  p50_ms: number;
  p99_ms: number;
  /** Non-2xx/3xx answers plus socket errors. */
  errors: number;
}

/** wrk's duration in milliseconds ("635.00us", "1.07ms", "1.20s"). */
export function wrkMilliseconds(value: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(value);
  if (!match) throw new Error(`unexpected wrk duration "${value}"`);
  const factor = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[match[2] as 'us' | 'ms' | 's' | 'm'];
  return Number((Number(match[1]) * factor).toFixed(3));
}

/** Parses wrk's `--latency` report. */
export function parseWrk(stdout: string): WrkResult {
  const percentile = (p: string) =>
    wrkMilliseconds(new RegExp(`^\\s+${p}%\\s+(\\S+)\\s*$`, 'm').exec(stdout)?.[1] ?? '');
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  return {
    requests_per_second: Math.round(Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0)),
    p50_ms: percentile('50'),
    p99_ms: percentile('99'),
    errors: non2xx + (socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0),
  };
}

export async function wrk(url: string, options: WrkOptions = {}): Promise<WrkResult> {
  const { connections = 50, seconds = 10, threads = 1, headers = {}, script } = options;
  const headerArgs = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const scriptArgs = script === undefined ? [] : ['-s', script];
  const args = [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, '--latency', ...headerArgs, ...scriptArgs, url];
  const { stdout } = await run(...onCpus(LOAD_CPUS, 'wrk', args)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new Error('wrk is not installed: apt-get install wrk (Debian package)');
    throw error;
  });
  try {
    return parseWrk(stdout);
  } catch (error) {
    throw new Error(`${(error as Error).message} in wrk's report:\n${stdout}`);
  }
}
