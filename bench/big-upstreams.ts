// Benchmarks "Big upstreams do not slow others" (docs/benchmarks.md): wrk latency of a small link and an API read, idle and while four 5 MB upstreams are refreshed every 3 s, against the built service in its own process.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BENCH_ENV, startServiceProcess } from './service-process.js';
import { wrk, type WrkResult } from './wrk.js';
import { median } from '../scripts/support/stats.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 8);
const REFRESH_EVERY_MS = 3000;
const MAX_BYTES = 5 * 1024 * 1024;
/** Extra node options for the service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" or "--trace-gc". */
const NODE_ARGS = (process.env['BENCH_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
const run = promisify(execFile);

/**
 * The upstream runs in its own process. /plain/* answers just under 5 MiB of plain lines, /b64/* just under 5 MiB of
 * base64. Each path rotates through three bodies built at its first request, every line different in each (a
 * generation number), so every refresh parses and stores new content while the upstream itself spends no CPU.
 */
const UPSTREAM_SOURCE = `
const http = require('node:http');
let generation = 0;
function body(path) {
  const b64 = path.startsWith('/b64/');
  const limit = b64 ? Math.floor(${MAX_BYTES} * 0.74) : ${MAX_BYTES} - 1024;
  const g = ++generation;
  const lines = [];
  let size = 0;
  for (let i = 0; ; i++) {
    const line = 'trojan://pw' + g + 'x' + i + '@h' + i + '.g' + g + '.example.net:443?sni=example.org#' + encodeURIComponent(path) + '-' + i;
    if (size + line.length + 1 > limit) break;
    lines.push(line);
    size += line.length + 1;
  }
  const text = lines.join('\\n');
  return Buffer.from(b64 ? Buffer.from(text).toString('base64') : text);
}
const paths = new Map();
http.createServer((req, res) => {
  if (!paths.has(req.url)) paths.set(req.url, { bodies: [body(req.url), body(req.url), body(req.url)], served: 0 });
  const path = paths.get(req.url);
  const b = path.bodies[path.served++ % path.bodies.length];
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': b.length });
  res.end(b);
}).listen(0, '127.0.0.1', function () { process.stdout.write(String(this.address().port) + '\\n'); });
`;

interface LoopDelay {
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

async function startUpstream(): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', UPSTREAM_SOURCE], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) =>
    child.stdout?.once('data', (data: Buffer) => resolve(data.toString().trim())),
  );
  return { origin: `http://127.0.0.1:${port}`, child };
}

function loopDelay(service: ChildProcess, message: 'loop-delay:reset'): void;
function loopDelay(service: ChildProcess, message: 'loop-delay:read'): Promise<LoopDelay>;
function loopDelay(service: ChildProcess, message: string): Promise<LoopDelay> | void {
  if (message === 'loop-delay:reset') {
    service.send(message);
    return;
  }
  const answer = new Promise<LoopDelay>((resolve) =>
    service.once('message', (data) => resolve((data as { loopDelay: LoopDelay }).loopDelay)),
  );
  service.send(message);
  return answer;
}

const wrkAt = (url: string, headers: Record<string, string> = {}): Promise<WrkResult> =>
  wrk(url, { connections: CONNECTIONS, seconds: SECONDS, headers });

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'subweave-bigup-'));
  const env = {
    ...process.env,
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    ...BENCH_ENV,
    FETCH_TIMEOUT_MS: '30000',
    RATE_LIMIT_API_PER_MIN: '0',
    LOG_LEVEL: 'warn',
  };
  const createUser = async (id: number) =>
    (await run(process.execPath, ['dist/cli.js', 'users', 'create', String(id)], { env })).stdout.trim();
  const [reader, owner] = [await createUser(1), await createUser(2)];
  const upstream = await startUpstream();
  const service = await startServiceProcess(env, {
    nodeArgs: [...NODE_ARGS, '--import', './bench/loop-delay-probe.mjs'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { base } = service;

  const create = async (token: string, name: string, sources: string[]) => {
    const response = await fetch(`${base}/api/v1/subs`, {
      method: 'POST',
      headers: { 'api-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ name, sources }),
    });
    if (!response.ok) throw new Error(`create ${name}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { token: string }).token;
  };
  const smallLines = Array.from(
    { length: 20 },
    (_, i) => `vless://${i.toString(16).padStart(8, '0')}-1111-4222-8333-944455556666@small.example.com:443#s${i}`,
  );
  const small = await create(reader, 'small', smallLines);
  const bigUrls = ['b64/1', 'b64/2', 'plain/3', 'plain/4'].map((path) => `${upstream.origin}/${path}`);
  const big = await create(owner, 'big', bigUrls);

  const targets = {
    public_link: () => wrkAt(`${base}/sub/${small}`),
    api_read: () => wrkAt(`${base}/api/v1/subs/${small}`, { 'api-token': reader }),
  };
  const refreshOnce = async () => {
    const started = performance.now();
    const response = await fetch(`${base}/api/v1/subs/${big}/refresh`, {
      method: 'POST',
      headers: { 'api-token': owner },
    });
    const report = (await response.json()) as { refreshed: number; errors: string[] | null };
    if (report.refreshed !== bigUrls.length) throw new Error(`refresh failed: ${JSON.stringify(report.errors)}`);
    return performance.now() - started;
  };
  await refreshOnce();
  for (const token of [small, big]) await (await fetch(`${base}/sub/${token}`)).arrayBuffer();

  /** Runs both targets one after the other, reporting their wrk figures and the service's event-loop delay. */
  const phase = async () => {
    loopDelay(service.child, 'loop-delay:reset');
    const link = await targets.public_link();
    const api = await targets.api_read();
    const eventLoop = await loopDelay(service.child, 'loop-delay:read');
    return { public_link: link, api_read: api, event_loop: eventLoop, load_average_1m: loadavg()[0]?.toFixed(2) };
  };

  type Phase = Awaited<ReturnType<typeof phase>>;
  const rounds: Array<{ idle: Phase; loaded: Phase; refreshes: number; refresh_ms_median: number }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    const idle = await phase();
    let refreshing = true;
    const refreshTimes: number[] = [];
    const refresher = (async () => {
      while (refreshing) {
        const took = await refreshOnce();
        refreshTimes.push(took);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, REFRESH_EVERY_MS - took)));
      }
    })();
    const loaded = await phase();
    refreshing = false;
    await refresher;
    rounds.push({
      idle,
      loaded,
      refreshes: refreshTimes.length,
      refresh_ms_median: Math.round(median(refreshTimes)),
    });
  }

  const ratio = (target: 'public_link' | 'api_read') =>
    Number(
      (median(rounds.map((r) => r.loaded[target].p99_ms)) / median(rounds.map((r) => r.idle[target].p99_ms))).toFixed(
        2,
      ),
    );
  console.log(
    JSON.stringify(
      {
        settings: { seconds: SECONDS, rounds: ROUNDS, connections: CONNECTIONS, refresh_every_ms: REFRESH_EVERY_MS },
        rounds,
        p99_loaded_to_idle_median: { public_link: ratio('public_link'), api_read: ratio('api_read') },
      },
      null,
      2,
    ),
  );

  upstream.child.kill();
  await service.stop();
  rmSync(dir, { recursive: true, force: true });
}

await main();
