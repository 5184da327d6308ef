// Starts the built service (`node dist/cli.js serve --role api`) in its own process for the scale benchmark, and reads its memory.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { waitUntilServing } from './service-process.js';
import { freePort } from '../scripts/support/private-services.js';

export interface Service {
  base: string;
  pid: number;
  stop(): Promise<void>;
}

/** API role only: no refresher, so the seeded upstream cache is what every link serves. */
export async function startService(env: NodeJS.ProcessEnv): Promise<Service> {
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/cli.js', 'serve', '--role', 'api'], {
    env: { ...env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // A failed run must not leave the service behind (it would also hold the caller's terminal open).
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  const base = `http://127.0.0.1:${port}`;
  await waitUntilServing(base, child);
  return {
    base,
    pid: child.pid as number,
    stop: async () => {
      process.off('exit', orphaned);
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Resident set size in bytes, from /proc (Linux). */
export async function readRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kib === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kib) * 1024;
}
