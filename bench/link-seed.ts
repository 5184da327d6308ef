// The warm-link benchmarks measure one seeded link: a SQLite database with the subscription of bench/public-link.ts, its upstreams and the bytes it answers, prepared here once per run.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { BENCH_ENV, startServiceProcess } from './service-process.js';

const run = promisify(execFile);

export interface SeededLink {
  /** The environment every service process of the run starts with (its database included). */
  env: NodeJS.ProcessEnv;
  /** A folder of the run's own, removed by `close`. */
  dir: string;
  /** The link's path, which each service process answers. */
  path: string;
  body: Buffer;
  etag: string;
  /** Stops the upstreams and removes the database. */
  close(): Promise<void>;
}

const uuid = (i: number) => `${i.toString(16).padStart(8, '0')}-1111-4222-8333-944455556666`;
/** The i-th config of a host: the lines every warm-link benchmark's subscription is made of. */
export const vless = (host: string, i: number) =>
  `vless://${uuid(i)}@${host}.example.com:443?security=tls&type=ws#${host}-${i}`;

/** The link's two upstreams, `/a` and `/b`: base64 bodies of 200 configs each (not yet listening). */
export function upstreamServer(): Server {
  const bodies = new Map<string, string>();
  for (const name of ['a', 'b']) {
    const lines = Array.from({ length: 200 }, (_, i) => vless(`up-${name}`, i));
    bodies.set(`/${name}`, Buffer.from(lines.join('\n')).toString('base64'));
  }
  return createServer((request, response) => response.end(bodies.get(request.url ?? '') ?? ''));
}

/**
 * Builds the service, then seeds through a service process of its own (stopped before this resolves) into a new
 * SQLite file, or into `databaseUrl` (an empty database) when given: two nested
 * subscriptions of 20 configs, 150 configs of its own and two base64 upstreams of 200 lines each, which stay up
 * until `close` so later processes can refresh them.
 */
export async function seedLink(logLevel: string, databaseUrl?: string): Promise<SeededLink> {
  execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'subweave-link-'));
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl ?? `sqlite:${join(dir, 'bench.db')}`,
    ...BENCH_ENV,
    MAX_SOURCES_PER_SUBSCRIPTION: '200',
    MAX_SUBSCRIPTIONS_PER_USER: '10',
    LOG_LEVEL: logLevel,
  };
  const upstream = upstreamServer();
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const close = async () => {
    await new Promise((resolve) => upstream.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const token = (await run(process.execPath, ['dist/cli.js', 'users', 'create', '1'], { env })).stdout.trim();
    return { env, dir, ...(await seedThroughService(env, token, origin)), close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function seedThroughService(env: NodeJS.ProcessEnv, token: string, origin: string) {
  const service = await startServiceProcess(env);
  try {
    const post = async (url: string, body: unknown) => {
      const response = await fetch(`${service.base}${url}`, {
        method: 'POST',
        headers: { 'api-token': token, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
      return (await response.json()) as { token: string };
    };
    const nested = [];
    for (const name of ['na', 'nb']) {
      nested.push(await post('/api/v1/subs', { name, sources: Array.from({ length: 20 }, (_, i) => vless(name, i)) }));
    }
    const main = await post('/api/v1/subs', {
      name: 'bench',
      sources: Array.from({ length: 150 }, (_, i) => vless('main', i)),
    });
    await post(`/api/v1/subs/${main.token}/sources`, {
      sources: [...nested.map((sub) => `http://bench.test/api/v1/sub/${sub.token}`), `${origin}/a`, `${origin}/b`],
    });
    const path = `/sub/${main.token}`;
    const first = await fetch(`${service.base}${path}`);
    const body = Buffer.from(await first.arrayBuffer());
    return { path, body, etag: first.headers.get('etag') ?? '' };
  } finally {
    await service.stop();
  }
}

/** CPU seconds a process has used so far in its own code (user) and in the kernel's (system), from /proc (ticks of 10 ms). */
export function cpuTimes(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number): number {
  const { user, system } = cpuTimes(pid);
  return user + system;
}
