// Benchmarks "no upstream body can hurt the process" (docs/benchmarks.md): the built service refreshes hostile profiles (deep nesting, YAML alias and merge-key bombs) while a probe reads its event-loop delay, /healthz latency and resident memory; then it is restarted on the same database to show that the back-off holds.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BENCH_ENV, readRss, startServiceProcess, type ServiceProcess } from './service-process.js';

/** How long each run of the service is watched; the refresher passes every REFRESH_INTERVAL_SECONDS within it. */
const RUN_SECONDS = Number(process.env['BENCH_SECONDS'] ?? 60);
const REFRESH_INTERVAL_SECONDS = 10;
const SAMPLE_EVERY_MS = 100;
const MiB = 1024 * 1024;
const run = promisify(execFile);

const flowDeep = (depth: number): string => `proxies: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;

/** At least `bytes` of proxies that each merge one anchored map: more than 1,000 merge keys. */
function mergeBomb(bytes: number): string {
  const items: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const item = `  - {<<: *base, name: n${i}}`;
    items.push(item);
    size += item.length + 1;
  }
  return `base: &base {type: ss, server: a.example.com, port: 1, cipher: aes-128-gcm, password: p}\nproxies:\n${items.join('\n')}\n`;
}

/** 1,000 merge keys (allowed) of one anchored map as wide as `bytes` allows: each merge copies every key. */
function mergeWide(bytes: number): string {
  const items = Array.from({ length: 1_000 }, (_, i) => `  - {<<: *base, name: n${i}}`).join('\n');
  const keys: string[] = [];
  for (let i = 0, size = items.length; size < bytes - 100; i++) {
    const key = `  k${i}: v`;
    keys.push(key);
    size += key.length + 1;
  }
  return `base: &base\n  type: ss\n${keys.join('\n')}\nproxies:\n${items}\n`;
}

/** Billion laughs: nine levels of ten aliases each (90 aliases, 10^9 nodes once expanded). */
function laughs(): string {
  const levels = ['l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i < 10; i++)
    levels.push(`l${i}: &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(', ')}]`);
  return `${levels.join('\n')}\nproxies: *l9\n`;
}

const BODIES: Record<string, () => string> = {
  'deep-4500': () => flowDeep(4_500),
  'deep-33000': () => flowDeep(33_000),
  'json-deep-33000': () => `{"outbounds":${'['.repeat(33_000)}${']'.repeat(33_000)}}`,
  'merge-bomb-200k': () => mergeBomb(200_000),
  'merge-bomb-1m': () => mergeBomb(1_000_000),
  'merge-bomb-5m': () => mergeBomb(5_000_000),
  'merge-wide-64k': () => mergeWide(64 * 1024),
  'merge-wide-1m': () => mergeWide(1_000_000),
  'billion-laughs': laughs,
};

async function startUpstream() {
  const bodies = new Map(Object.entries(BODIES).map(([name, make]) => [`/${name}`, Buffer.from(make())]));
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const body = bodies.get(req.url ?? '');
    hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sizes = Object.fromEntries([...bodies].map(([path, body]) => [path.slice(1), body.length]));
  const hitsNow = () => Object.fromEntries(Object.keys(BODIES).map((name) => [name, hits.get(`/${name}`) ?? 0]));
  return { origin, sizes, hitsNow, close: () => new Promise((resolve) => server.close(resolve)) };
}

interface LoopDelay {
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

function readLoopDelay(service: ServiceProcess): Promise<LoopDelay> {
  const answer = new Promise<LoopDelay>((resolve) =>
    service.child.once('message', (data) => resolve((data as { loopDelay: LoopDelay }).loopDelay)),
  );
  service.child.send('loop-delay:read');
  return answer;
}

/** Watches the service for RUN_SECONDS: /healthz latency (a failed probe counts), peak RSS, and whether it exited. */
async function watch(service: ServiceProcess) {
  service.child.send('loop-delay:reset');
  let healthzMaxMs = 0;
  let healthzFailures = 0;
  let peakRss = 0;
  const until = Date.now() + RUN_SECONDS * 1000;
  while (Date.now() < until && service.child.exitCode === null) {
    const started = performance.now();
    const ok = await fetch(`${service.base}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    healthzMaxMs = Math.max(healthzMaxMs, performance.now() - started);
    if (!ok) healthzFailures++;
    peakRss = Math.max(peakRss, await readRss(service.pid).catch(() => 0));
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
  }
  const survived = service.child.exitCode === null;
  return {
    survived,
    event_loop: survived ? await readLoopDelay(service) : null,
    healthz_max_ms: Math.round(healthzMaxMs),
    healthz_failures: healthzFailures,
    peak_rss_mib: Math.round(peakRss / MiB),
  };
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'subweave-hostile-'));
  const env = {
    ...process.env,
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    ...BENCH_ENV,
    REFRESH_INTERVAL_SECONDS: String(REFRESH_INTERVAL_SECONDS),
    RATE_LIMIT_API_PER_MIN: '0',
    LOG_LEVEL: 'error',
  };
  const owner = (await run(process.execPath, ['dist/cli.js', 'users', 'create', '1'], { env })).stdout.trim();
  const upstream = await startUpstream();
  const start = () =>
    startServiceProcess(env, {
      nodeArgs: ['--import', './bench/loop-delay-probe.mjs'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });

  let service = await start();
  const urls = Object.keys(BODIES).map((name) => `${upstream.origin}/${name}`);
  const created = await fetch(`${service.base}/api/v1/subs`, {
    method: 'POST',
    headers: { 'api-token': owner, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'hostile', sources: urls }),
  });
  if (!created.ok) throw new Error(`create: ${created.status} ${await created.text()}`);
  const token = ((await created.json()) as { token: string }).token;
  const first = await watch(service);
  const lastErrors = async () => {
    const response = await fetch(`${service.base}/api/v1/subs/${token}`, { headers: { 'api-token': owner } });
    const view = (await response.json()) as { sources: Array<{ data: string; last_error: string | null }> };
    return Object.fromEntries(view.sources.map((s) => [s.data.slice(upstream.origin.length + 1), s.last_error]));
  };
  const errors = first.survived ? await lastErrors() : null;
  const hitsFirstRun = upstream.hitsNow();
  await service.stop();

  service = await start();
  const second = await watch(service);
  const hitsAfterRestart = upstream.hitsNow();
  await service.stop();
  await upstream.close();

  console.log(
    JSON.stringify(
      {
        settings: { run_seconds: RUN_SECONDS, refresh_interval_seconds: REFRESH_INTERVAL_SECONDS },
        body_bytes: upstream.sizes,
        first_run: { ...first, last_error: errors, fetches: hitsFirstRun },
        after_restart: { ...second, fetches: hitsAfterRestart },
      },
      null,
      2,
    ),
  );
  rmSync(dir, { recursive: true, force: true });
}

await main();
