// Times the public link's first GET after a write for 10,000 upstream servers, with and without the 32-operator chain, and the memory it takes.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { startInProcess } from './in-process.js';
import { BENCH_CHAIN, benchLine } from './transforms-data.js';
import { createUser } from '../src/modules/users/users.service.js';
import { percentile } from '../scripts/support/stats.js';

const SERVERS = Number(process.env['BENCH_SERVERS'] ?? 10_000);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 20);
const WARMUP_RUNS = 3;
const FORMS = (process.env['BENCH_FORMS'] ?? 'default,mihomo,sing-box,xray').split(',');
/** Run with --expose-gc (and a young generation large enough that one GET does not collect, as the npm script does). */
const gc = (globalThis as { gc?: () => void }).gc;
const mib = (bytes: number) => Number((bytes / 1_048_576).toFixed(1));
/** The whole heap once collected, with the runs' cached bodies in it. */
const heapAfterGc = () => (gc ? (gc(), mib(process.memoryUsage().heapUsed)) : null);

async function main(): Promise<void> {
  const body = Buffer.from(Array.from({ length: SERVERS }, (_, i) => benchLine(i)).join('\n'));
  const upstream = createServer((_request, response) => response.end(body));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/list`;
  const { base, context, database, stop } = await startInProcess({ MAX_RESOLVED_CONFIGS: String(SERVERS) });
  const { api_token: apiToken } = await createUser(database.db, 1);
  const call = async (method: string, url: string, payload: unknown) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { 'api-token': apiToken, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { token: string };
  };
  const plain = await call('POST', '/api/v1/subs', { name: 'plain', sources: [upstreamUrl] });
  const chained = await call('POST', '/api/v1/subs', { name: 'chained', sources: [upstreamUrl] });
  await call('PUT', `/api/v1/subs/${chained.token}/transforms`, { transforms: BENCH_CHAIN });

  const touch = (token: string) =>
    context.changes.write(async (trx, record) => {
      await trx
        .updateTable('subscriptions')
        .set({ updated_at: new Date().toISOString() })
        .where('token', '=', token)
        .execute();
      record({ kind: 'subscription', token });
    });
  const coldGet = async (token: string, form: string): Promise<{ wall: number; cpu: number; text: string }> => {
    await touch(token);
    const url = form === 'default' ? `${base}/sub/${token}` : `${base}/sub/${token}/${form}`;
    const cpu = process.cpuUsage();
    const started = performance.now();
    const response = await fetch(url);
    const text = await response.text();
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}`);
    return { wall, cpu: (used.user + used.system) / 1000, text };
  };
  const p = (values: number[]) => ({
    p50: Number(percentile(values, 50).toFixed(1)),
    p95: Number(percentile(values, 95).toFixed(1)),
  });

  const served = async (token: string) =>
    Buffer.from((await coldGet(token, 'default')).text, 'base64')
      .toString()
      .split('\n')
      .filter(Boolean).length;
  const servedCounts = { 'without chain': await served(plain.token), '32-operator chain': await served(chained.token) };

  const results: Record<string, unknown> = {};
  let peakRss = process.memoryUsage().rss;
  for (const form of FORMS) {
    for (const [label, token] of [
      ['without chain', plain.token],
      ['32-operator chain', chained.token],
    ] as const) {
      for (let i = 0; i < WARMUP_RUNS; i++) await coldGet(token, form);
      gc?.();
      const heapBefore = process.memoryUsage().heapUsed;
      await coldGet(token, form);
      const oneGetHeap = process.memoryUsage().heapUsed - heapBefore;
      const timings = [];
      for (let i = 0; i < RUNS; i++) {
        timings.push(await coldGet(token, form));
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
      }
      results[`${form}, ${label}`] = {
        wall_ms: p(timings.map((t) => t.wall)),
        cpu_ms: p(timings.map((t) => t.cpu)),
        heap_allocated_by_one_get_mib: mib(oneGetHeap),
        heap_after_gc_mib: heapAfterGc(),
      };
    }
  }
  console.log(
    JSON.stringify(
      {
        upstream_servers: SERVERS,
        runs: RUNS,
        servers_served: servedCounts,
        cold_get: results,
        peak_rss_mib: mib(peakRss),
        load_average: loadavg().map((l) => Number(l.toFixed(2))),
      },
      null,
      2,
    ),
  );
  await stop();
  upstream.close();
}

await main();
