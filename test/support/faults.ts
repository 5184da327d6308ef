// Dependencies a test can break and mend: a TCP link, a private redis-server and a private PostgreSQL cluster on free ports.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Forwards 127.0.0.1:<port> to a target; `cut()` drops every connection and refuses new ones until `mend()`. */
export interface CuttableLink {
  port: number;
  cut(): Promise<void>;
  mend(): Promise<void>;
  close(): Promise<void>;
}

export async function cuttableLink(targetHost: string, targetPort: number): Promise<CuttableLink> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  const open = async () => {
    if (server) return;
    server = createServer((client) => {
      const upstream = connect(targetPort, targetHost);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => sockets.delete(socket));
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server?.listen(port, '127.0.0.1', resolve));
  };
  const cut = async () => {
    const closing = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    if (closing) await new Promise((resolve) => closing.close(resolve));
  };
  await open();
  return { port, cut, mend: open, close: cut };
}

/** A redis-server of the test's own (never the machine's shared one), without persistence. */
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

/** A PostgreSQL cluster of the test's own in a temporary folder on a free port (never the machine's shared one). */
export interface PrivatePostgres {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  destroy(): Promise<void>;
}

export async function privatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'subweave-pg-'));
  const data = join(dir, 'data');
  const port = await freePort();
  // PostgreSQL refuses to run as root: as root, run its tools as the postgres user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const tool = (name: string, args: string[]) => {
    const [command, ...rest] = asRoot
      ? ['runuser', '-u', 'postgres', '--', `${PG_BIN}/${name}`, ...args]
      : [`${PG_BIN}/${name}`, ...args];
    execFileSync(command as string, rest, { stdio: 'ignore' });
  };
  tool('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = async () => tool('pg_ctl', ['-D', data, '-o', options, '-w', '-l', join(dir, 'log'), 'start']);
  const stop = async () => tool('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy: async () => {
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
