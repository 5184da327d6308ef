// Benchmarks that run the built service in a process of their own start it here, from one base environment, and wait for it before they measure.
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { freePort } from '../scripts/support/private-services.js';
import { onCpus, SERVER_CPUS } from './cpu-pinning.js';

/**
 * What every benchmark's service starts from: links under a bench host name, upstreams on loopback allowed, and no
 * public budget (one load generator is one client address, which a budget would refuse within a second).
 */
export const BENCH_ENV: Readonly<Record<string, string>> = {
  PUBLIC_BASE_URL: 'http://bench.test',
  FETCH_ALLOW_PRIVATE: 'true',
  RATE_LIMIT_PUBLIC_PER_MIN: '0',
};

export interface ServiceProcess {
  base: string;
  child: ChildProcess;
  pid: number;
  /** SIGTERM, and resolves once the process has exited. */
  stop(): Promise<void>;
}

export interface ServiceProcessOptions {
  /** Node options before the script, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
  /** Arguments after `serve`, e.g. `--role api`. */
  serveArgs?: string[];
  stdio?: StdioOptions;
  /** False for a process that opens no port (`--role worker`): it is not waited for. */
  serving?: boolean;
}

/** The node options `npm start` (and the systemd unit) run the service with, read from package.json. */
function startNodeOptions(): string[] {
  const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
  const [, options] = /^node (.*)dist\/cli\.js serve$/.exec(start) ?? [];
  if (options === undefined) throw new Error(`unexpected start script: ${start}`);
  return options.split(' ').filter(Boolean);
}

/**
 * `node <npm start's options> [nodeArgs] dist/cli.js serve [serveArgs]` on a free loopback port; killed if the
 * benchmark exits first.
 */
export async function startServiceProcess(
  env: NodeJS.ProcessEnv,
  {
    nodeArgs = [],
    serveArgs = [],
    stdio = ['ignore', 'ignore', 'inherit'],
    serving = true,
  }: ServiceProcessOptions = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const args = [...startNodeOptions(), ...nodeArgs, 'dist/cli.js', 'serve', ...serveArgs];
  const child = spawn(...onCpus(SERVER_CPUS, process.execPath, args), {
    env: { ...env, HOST: '127.0.0.1', PORT: String(port) },
    stdio,
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // A failed run must not leave the service behind (it would also hold the caller's terminal open).
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  const base = `http://127.0.0.1:${port}`;
  if (serving) await waitUntilServing(base, child);
  return {
    base,
    child,
    pid: child.pid as number,
    stop: async () => {
      process.off('exit', orphaned);
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

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

/** Resident set size in bytes, from /proc (Linux). */
export async function readRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kib === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kib) * 1024;
}
