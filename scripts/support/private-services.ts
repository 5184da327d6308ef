// Private dependencies on free loopback ports for tests and scripts: a redis-server and a PostgreSQL cluster of their own.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls `check` every 25 ms until it holds (true) or `limitMs` passes (false). */
export async function waitFor(limitMs: number, check: () => boolean | Promise<boolean>): Promise<boolean> {
  const started = Date.now();
  while (Date.now() - started <= limitMs) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

/** A redis-server of its own (never the machine's shared one), without persistence. */
export interface PrivateRedis {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function privateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    await new Promise<void>((resolve, reject) => {
      child?.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Ready to accept connections')) resolve();
      });
      child?.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
    });
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    await new Promise((resolve) => {
      running.once('exit', resolve);
      running.kill('SIGKILL');
    });
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, stop, start };
}

const PG_BIN = (() => {
  try {
    const versions = readdirSync('/usr/lib/postgresql').sort();
    const bin = `/usr/lib/postgresql/${versions[versions.length - 1]}/bin`;
    return existsSync(`${bin}/initdb`) ? bin : null;
  } catch {
    return null;
  }
})();

export const canRunPrivatePostgres = PG_BIN !== null;

/** A PostgreSQL cluster of its own in a temporary folder on a free port (never the machine's shared one). */
export interface PrivatePostgres {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** `pg_ctl restart` (fast mode): every connection is closed and the server is back when it resolves. */
  restart(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * Runs a PostgreSQL tool without blocking the event loop (a caller may be serving load meanwhile). It waits for the
 * tool's exit, not for its output streams, which a server started in the background may hold.
 */
function runTool(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited with ${code}: ${stderr.trim()}`)),
    );
  });
}

export async function privatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'subweave-pg-'));
  const data = join(dir, 'data');
  const port = await freePort();
  // PostgreSQL refuses to run as root: as root, run its tools as the postgres user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await runTool('chown', ['postgres', dir]);
  const tool = (name: string, args: string[]) =>
    asRoot
      ? runTool('runuser', ['-u', 'postgres', '--', `${PG_BIN}/${name}`, ...args])
      : runTool(`${PG_BIN}/${name}`, args);
  await tool('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const pgCtl = (action: string) =>
    tool('pg_ctl', ['-D', data, '-o', options, '-m', 'fast', '-w', '-l', join(dir, 'log'), action]);
  const stop = () => pgCtl('stop');
  await pgCtl('start');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => pgCtl('start'),
    stop,
    restart: () => pgCtl('restart'),
    destroy: async () => {
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
