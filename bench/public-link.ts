// Benchmarks the public link on loopback with wrk: warm requests per format, the 304 path, a bare node:http ceiling, and cold resolution.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startInProcess } from './in-process.js';
import { wrk } from './wrk.js';
import { FORMATS } from '../src/formats/formats.js';
import { RenderCache } from '../src/modules/resolve/render-cache.js';
import { createUser } from '../src/modules/users/users.service.js';
import { percentile } from '../scripts/support/stats.js';
import { upstreamServer, vless } from './link-seed.js';

const DURATION_SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
const COLD_RUNS = 200;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** 50 connections, one wrk thread (the machine has two cores: one for wrk, one for the server). */
const load = (url: string, headers: Record<string, string> = {}) =>
  wrk(url, { connections: CONNECTIONS, seconds: DURATION_SECONDS, headers });

/** Warm requests of each format's path form; the first request renders and caches the body. */
async function perFormat(link: string) {
  const results: Record<string, { body_bytes: number } & Awaited<ReturnType<typeof load>>> = {};
  for (const format of FORMATS) {
    const url = `${link}/${format}`;
    const bytes = (await (await fetch(url)).arrayBuffer()).byteLength;
    results[format] = { body_bytes: bytes, ...(await load(url)) };
  }
  return results;
}

async function main(): Promise<void> {
  const upstream = upstreamServer();
  const upstreamUrl = await listen(upstream);
  const { base, config, context, database, stop } = await startInProcess({
    MAX_SOURCES_PER_SUBSCRIPTION: '200',
    MAX_SUBSCRIPTIONS_PER_USER: '10',
  });

  const { api_token: token } = await createUser(database.db, 1);
  const post = async (url: string, body: unknown, method: 'POST' | 'PUT' = 'POST') => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { 'api-token': token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { token: string; sources_count: number };
  };
  const nestedA = await post('/api/v1/subs', {
    name: 'nested-a',
    sources: Array.from({ length: 20 }, (_, i) => vless('na', i)),
  });
  const nestedB = await post('/api/v1/subs', {
    name: 'nested-b',
    sources: Array.from({ length: 20 }, (_, i) => vless('nb', i)),
  });
  const main = await post('/api/v1/subs', {
    name: 'bench',
    sources: Array.from({ length: 150 }, (_, i) => vless('main', i)),
  });
  const seeded = await post(`/api/v1/subs/${main.token}/sources`, {
    sources: [
      `http://bench.test/api/v1/sub/${nestedA.token}`,
      `http://bench.test/api/v1/sub/${nestedB.token}`,
      `${upstreamUrl}/a`,
      `${upstreamUrl}/b`,
    ],
  });

  const link = `${base}/sub/${main.token}`;
  const first = await fetch(link);
  const body = await first.text();
  const etag = first.headers.get('etag') ?? '';

  const bare = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', etag });
    response.end(body);
  });
  const bareUrl = await listen(bare);

  // A second cache on the same change log: each run records a change first, so every read resolves from scratch.
  const coldCache = new RenderCache(database.db, config, context.changes, context.formats);
  const timings: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    await context.changes.write(async (_trx, record) => record({ kind: 'subscription', token: main.token }));
    const started = performance.now();
    await coldCache.get(main.token);
    timings.push(performance.now() - started);
  }

  const results = {
    seeded: { lines_served: seeded.sources_count, body_bytes: body.length },
    warm_link: await load(link),
    warm_link_per_format: await perFormat(`${base}/sub/${main.token}`),
    not_modified_304: await load(link, { 'if-none-match': etag }),
    bare_node_http: await load(bareUrl),
    cold_resolution_ms: {
      runs: COLD_RUNS,
      p50: Number(percentile(timings, 50).toFixed(2)),
      p99: Number(percentile(timings, 99).toFixed(2)),
      mean: Number((timings.reduce((a, b) => a + b, 0) / timings.length).toFixed(2)),
    },
  };
  const ratio = results.warm_link.requests_per_second / results.bare_node_http.requests_per_second;
  console.log(JSON.stringify({ ...results, warm_to_bare_ratio: Number(ratio.toFixed(3)) }, null, 2));

  await stop();
  bare.close();
  upstream.close();
}

await main();
