// Benchmarks on loopback (docs/benchmarks.md, The heaviest graph and big upstreams): a cold GET of the heaviest graph, /healthz during it and during big refreshes, and other requests' latency while 5 MB upstreams are refreshed.
import { spawn, type ChildProcess } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { startInProcess } from './in-process.js';
import { createUser } from '../src/modules/users/users.service.js';
import { distinctLines, seedCache, seedDiamondGraph } from '../test/support/graph-seed.js';

const MAX_BYTES = 5 * 1024 * 1024;
const COLD_RUNS = 10;
const LOAD_SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);

/**
 * The upstream runs in its own process so serving 5 MB bodies does not share the service's event loop. Every path
 * answers just under 5 MB of distinct lines (plain text under /plain/, base64 under /b64/), distinct per path.
 */
const UPSTREAM_SOURCE = `
const http = require('node:http');
const max = ${MAX_BYTES};
function body(path) {
  const lines = [];
  let size = 0;
  for (let i = 0; ; i++) {
    const line = 'trojan://pw' + i + '@h' + i + '-' + path.length + '.example.net:443?sni=example.org#' + encodeURIComponent(path) + '-' + i;
    if (size + line.length + 1 > (path.startsWith('/b64/') ? max * 0.74 : max)) break;
    lines.push(line);
    size += line.length + 1;
  }
  const text = lines.join('\\n');
  return path.startsWith('/b64/') ? Buffer.from(text).toString('base64') : text;
}
const cache = new Map();
http.createServer((req, res) => {
  let b = cache.get(req.url);
  if (!b) { b = Buffer.from(body(req.url)); if (cache.size < 64) cache.set(req.url, b); }
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': b.length });
  res.end(b);
}).listen(0, '127.0.0.1', function () { process.stdout.write(String(this.address().port) + '\\n'); });
`;

async function startUpstream(): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', UPSTREAM_SOURCE], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) =>
    child.stdout?.once('data', (data: Buffer) => resolve(data.toString().trim())),
  );
  return { origin: `http://127.0.0.1:${port}`, child };
}

function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    Number((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0).toFixed(1));
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: at(1) };
}

/** Probes /healthz every 20 ms and samples RSS every 20 ms until stopped. */
function monitor(base: string) {
  const latencies: number[] = [];
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  let peakRss = process.memoryUsage.rss();
  let running = true;
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(`${base}/healthz`)).arrayBuffer();
      latencies.push(performance.now() - started);
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return async () => {
    running = false;
    await probe;
    loopDelay.disable();
    return {
      healthz_ms: stats(latencies),
      event_loop_block_max_ms: Number((loopDelay.max / 1e6).toFixed(1)),
      peak_rss_mib: Math.round(peakRss / 1024 / 1024),
    };
  };
}

async function main(): Promise<void> {
  const upstream = await startUpstream();
  const { base, config, context, database, stop } = await startInProcess({
    MAX_SUBSCRIPTIONS_PER_USER: '100',
    FETCH_TIMEOUT_MS: '30000',
    RATE_LIMIT_API_PER_MIN: '0',
  });

  const users = await Promise.all([1, 2, 3, 4].map((id) => createUser(database.db, id)));
  const seedStarted = performance.now();
  const graph = await seedDiamondGraph(database.db, {
    owners: [1, 2, 3, 4],
    width: 3,
    depth: config.maxNestingDepth,
    sourcesPerSubscription: config.maxSourcesPerSubscription,
    urlBase: `${upstream.origin}/plain`,
  });
  // Every URL stored at its maximum: MAX_RESOLVED_CONFIGS distinct lines.
  await seedCache(database.db, graph.urls, (_url, i) => distinctLines(`u${i}`, config.maxResolvedConfigs));
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  const link = `${base}/api/v1/sub/${graph.root}`;
  const coldStop = monitor(base);
  const cold: number[] = [];
  let servedBytes = 0;
  for (let run = 0; run < COLD_RUNS; run++) {
    const changed = graph.levels[config.maxNestingDepth]?.[2] ?? graph.root;
    await context.changes.write(async (_trx, record) => record({ kind: 'subscription', token: changed }));
    const started = performance.now();
    const response = await fetch(link);
    servedBytes = (await response.arrayBuffer()).byteLength;
    cold.push(performance.now() - started);
  }
  const coldMonitor = await coldStop();

  // A refresh of every URL of the served subscription: 147 bodies of 5 MB through FETCH_CONCURRENCY slots.
  const rootOwner = users[0]?.api_token ?? '';
  const refreshStop = monitor(base);
  const refreshStarted = performance.now();
  const refresh = await fetch(`${base}/api/v1/subs/${graph.root}/refresh`, {
    method: 'POST',
    headers: { 'api-token': rootOwner },
  });
  const refreshReport = (await refresh.json()) as { refreshed: number; failed: number; errors: string[] | null };
  const refreshSeconds = (performance.now() - refreshStarted) / 1000;
  const refreshMonitor = await refreshStop();

  // Big upstreams do not slow others: a small warm link under load, idle and while four 5 MB base64 upstreams are
  // refreshed every 3 s.
  const small = await fetch(`${base}/api/v1/subs`, {
    method: 'POST',
    headers: { 'api-token': users[1]?.api_token ?? '', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'small', sources: distinctLines('small', 20) }),
  });
  const smallToken = ((await small.json()) as { token: string }).token;
  const bigUrls = [1, 2, 3, 4].map((i) => `${upstream.origin}/b64/big-${i}`);
  const big = await fetch(`${base}/api/v1/subs`, {
    method: 'POST',
    headers: { 'api-token': users[2]?.api_token ?? '', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'big', sources: bigUrls }),
  });
  const bigToken = ((await big.json()) as { token: string }).token;
  const load = async () => {
    const result = await autocannon({ url: `${base}/sub/${smallToken}`, connections: 10, duration: LOAD_SECONDS });
    return {
      requests_per_second: Math.round(result.requests.average),
      p50_ms: result.latency.p50,
      p99_ms: result.latency.p99,
    };
  };
  const idle = await load();
  let refreshing = true;
  let bigRefreshes = 0;
  const refresher = (async () => {
    while (refreshing) {
      const started = performance.now();
      await (
        await fetch(`${base}/api/v1/subs/${bigToken}/refresh`, {
          method: 'POST',
          headers: { 'api-token': users[2]?.api_token ?? '' },
        })
      ).arrayBuffer();
      bigRefreshes++;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 3000 - (performance.now() - started))));
    }
  })();
  const busy = await load();
  refreshing = false;
  await refresher;

  console.log(
    JSON.stringify(
      {
        graph: {
          subscriptions: graph.levels.flat().length,
          external_urls: graph.urls.length,
          stored_lines_per_url: config.maxResolvedConfigs,
          seed_seconds: Number(seedSeconds.toFixed(1)),
        },
        cold_get_ms: stats(cold),
        served_bytes: servedBytes,
        during_cold_gets: coldMonitor,
        refresh_of_root_urls: {
          urls: refreshReport.refreshed + refreshReport.failed,
          failed: refreshReport.failed,
          seconds: Number(refreshSeconds.toFixed(1)),
          ...refreshMonitor,
        },
        big_upstreams: {
          idle,
          while_refreshing_4x5MB_every_3s: busy,
          refreshes: bigRefreshes,
          p99_ratio: Number((busy.p99_ms / idle.p99_ms).toFixed(2)),
        },
      },
      null,
      2,
    ),
  );

  await stop();
  upstream.child.kill();
}

await main();
