// Times the public link's first GET after a write (load, resolve, render) on the reference workload, per format, on SQLite.
import { startInProcess } from './in-process.js';
import { FORMATS } from '../src/formats/formats.js';
import { createUser } from '../src/modules/users/users.service.js';
import { percentile } from '../scripts/support/stats.js';
import { upstreamServer, vless } from './link-seed.js';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 300);
/** Runs per format before the timed ones, not counted (the JIT compiles the path). */
const WARMUP_RUNS = 30;

async function main(): Promise<void> {
  const upstream = upstreamServer();
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const { base, context, database, stop } = await startInProcess({
    MAX_SOURCES_PER_SUBSCRIPTION: '200',
    MAX_SUBSCRIPTIONS_PER_USER: '10',
  });
  const { api_token: apiToken } = await createUser(database.db, 1);
  const post = async (url: string, body: unknown) => {
    const response = await fetch(`${base}${url}`, {
      method: 'POST',
      headers: { 'api-token': apiToken, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { token: string; sources_count: number };
  };
  const nested = [];
  for (const name of ['na', 'nb']) {
    nested.push(await post('/api/v1/subs', { name, sources: Array.from({ length: 20 }, (_, i) => vless(name, i)) }));
  }
  const main = await post('/api/v1/subs', {
    name: 'bench',
    sources: Array.from({ length: 150 }, (_, i) => vless('main', i)),
  });
  const seeded = await post(`/api/v1/subs/${main.token}/sources`, {
    sources: [
      ...nested.map((sub) => `http://bench.test/api/v1/sub/${sub.token}`),
      `${upstreamUrl}/a`,
      `${upstreamUrl}/b`,
    ],
  });
  if (seeded.sources_count !== 590) throw new Error(`the link serves ${seeded.sources_count} lines, not 590`);

  // A real write in the served subscription's row, recorded as its change: the render cache drops the link.
  const write = () =>
    context.changes.write(async (trx, record) => {
      await trx
        .updateTable('subscriptions')
        .set({ updated_at: new Date().toISOString() })
        .where('token', '=', main.token)
        .execute();
      record({ kind: 'subscription', token: main.token });
    });
  /** Wall time and CPU time (of this process: client and service) of one GET, in ms. */
  const coldGet = async (url: string): Promise<{ wall: number; cpu: number }> => {
    await write();
    const cpu = process.cpuUsage();
    const started = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}`);
    return { wall, cpu: (used.user + used.system) / 1000 };
  };
  const stats = (values: number[]) => ({
    p50: Number(percentile(values, 50).toFixed(2)),
    p95: Number(percentile(values, 95).toFixed(2)),
    mean: Number((values.reduce((a, b) => a + b, 0) / values.length).toFixed(2)),
  });

  const results: Record<string, { wall: ReturnType<typeof stats>; cpu: ReturnType<typeof stats> }> = {};
  const forms = (
    process.env['BENCH_FORMS'] ?? ['default', ...FORMATS.filter((f) => f !== 'base64' && f !== 'plain')].join(',')
  ).split(',');
  for (const form of forms) {
    const url = form === 'default' ? `${base}/sub/${main.token}` : `${base}/sub/${main.token}/${form}`;
    for (let i = 0; i < WARMUP_RUNS; i++) await coldGet(url);
    const timings: Array<{ wall: number; cpu: number }> = [];
    for (let i = 0; i < RUNS; i++) timings.push(await coldGet(url));
    results[form === 'default' ? 'default (base64)' : form] = {
      wall: stats(timings.map((t) => t.wall)),
      cpu: stats(timings.map((t) => t.cpu)),
    };
  }
  console.log(
    JSON.stringify(
      { runs_per_format: RUNS, lines_served: seeded.sources_count, cold_get_ms: results, load_average: loadavg() },
      null,
      2,
    ),
  );
  await stop();
  upstream.close();
}

await main();
