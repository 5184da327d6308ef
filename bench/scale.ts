// Benchmarks scale (docs/benchmarks.md, Scale on PostgreSQL): link, list and create latency and memory with 1%, 10% and 100% of 10,000 users, 30,000 subscriptions and 1,000,000 sources on PostgreSQL, against the built service in its own process.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify, parseArgs } from 'node:util';
import pg from 'pg';
import { wrk } from './wrk.js';
import { configLine, randomGenerator, sampleDistinct, sizeAt, subscriptionToken, userToken } from './scale-data.js';
import { seededUsers, seedUsers } from './scale-seed.js';
import { percentile } from '../scripts/support/stats.js';
import { readRss, startServiceProcess, type ServiceProcess } from './service-process.js';

const run = promisify(execFile);
const { values: options } = parseArgs({
  options: {
    /** The largest size as a fraction of the full set; the steps are 1%, 10% and 100% of it. */
    scale: { type: 'string', default: process.env['BENCH_SCALE'] ?? '1' },
    /** Keep the database of an earlier run (and after this one): only missing users are seeded. */
    reuse: { type: 'boolean', default: false },
    /** Keep the database after the run. */
    keep: { type: 'boolean', default: false },
    /** Distinct subscriptions (cold link) and users (list) timed per step. */
    samples: { type: 'string', default: process.env['BENCH_SAMPLES'] ?? '300' },
    /** Subscriptions created (and one add each) per step. */
    creates: { type: 'string', default: process.env['BENCH_CREATES'] ?? '100' },
    seconds: { type: 'string', default: process.env['BENCH_SECONDS'] ?? '10' },
    connections: { type: 'string', default: process.env['BENCH_CONNECTIONS'] ?? '8' },
  },
});
const SCALE = Number(options.scale);
const SAMPLES = Number(options.samples);
const CREATES = Number(options.creates);
const DATABASE_URL = process.env['SCALE_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/subweave_scale';
const PUBLIC_BASE_URL = 'http://bench.test';

const ms = (value: number) => Number(value.toFixed(2));
const summary = (values: number[]) => ({ p50_ms: ms(percentile(values, 50)), p99_ms: ms(percentile(values, 99)) });
const load = () => Number(loadavg()[0]?.toFixed(2));

async function adminQuery(statement: string): Promise<void> {
  const url = new URL(DATABASE_URL);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  client.on('error', (error) => console.error('admin connection:', error.message));
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const databaseName = () => new URL(DATABASE_URL).pathname.slice(1);

/** Times `call` once per item, one at a time; a failed answer stops the run. */
async function timeEach<T>(items: T[], call: (item: T) => Promise<Response>): Promise<number[]> {
  const times: number[] = [];
  for (const item of items) {
    const started = performance.now();
    const response = await call(item);
    const body = await response.text();
    times.push(performance.now() - started);
    if (!response.ok) throw new Error(`${response.status} ${body.slice(0, 300)}`);
  }
  return times;
}

/** A wrk script that rotates through `paths`, so warm figures cover many subscriptions, not one. */
function rotatingScript(dir: string, paths: string[]): string {
  const file = join(dir, 'rotate.lua');
  const list = paths.map((path) => `"${path}"`).join(',\n');
  writeFileSync(
    file,
    `local paths = {\n${list}\n}\nlocal i = 0\nrequest = function()\n  i = i + 1\n  return wrk.format("GET", paths[(i % #paths) + 1])\nend\n`,
  );
  return file;
}

async function measureStep(service: () => Promise<ServiceProcess>, users: number, step: number, dir: string) {
  const subscriptions = users * 3;
  const random = randomGenerator(1000 + step);
  const api = (user: number) => ({ 'api-token': userToken(user), 'content-type': 'application/json' });

  // List first, on a fresh process: each listed subscription is rendered for its sources_count, as after a restart.
  let instance = await service();
  const listUsers = sampleDistinct(users, SAMPLES, random);
  const listCold = await timeEach(listUsers, (user) => fetch(`${instance.base}/api/v1/subs`, { headers: api(user) }));
  const listWarm = await timeEach(listUsers, (user) => fetch(`${instance.base}/api/v1/subs`, { headers: api(user) }));
  await instance.stop();

  // A fresh process again: every link below is its first render there.
  instance = await service();
  const linkTokens = sampleDistinct(subscriptions, SAMPLES, random).map(subscriptionToken);
  const cold = await timeEach(linkTokens, (token) => fetch(`${instance.base}/sub/${token}`));
  const warmPaths = linkTokens.slice(0, 100).map((token) => `/sub/${token}`);
  await timeEach(warmPaths, (path) => fetch(`${instance.base}${path}`));
  const warm = await wrk(instance.base, {
    connections: Number(options.connections),
    seconds: Number(options.seconds),
    script: rotatingScript(dir, warmPaths),
  });
  if (warm.errors > 0) throw new Error(`wrk saw ${warm.errors} errors`);
  const rssMiB = Math.round((await readRss(instance.pid)) / 1024 / 1024);

  // Create with nine configs and a reference, then add five configs; the subscriptions are deleted afterwards.
  const creators = sampleDistinct(users, CREATES, random);
  const created: Array<{ user: number; token: string }> = [];
  const lines = (seed: number, count: number, from = 0) =>
    Array.from({ length: count }, (_, i) => configLine(seed, from + i).line);
  const createTimes = await timeEach(creators, async (user) => {
    const referenced = subscriptionToken(Math.floor(random() * (subscriptions / 10)) * 10);
    const response = await fetch(`${instance.base}/api/v1/subs`, {
      method: 'POST',
      headers: api(user),
      body: JSON.stringify({
        name: `bench ${step} ${user}`,
        sources: [...lines(900_000_000 + user, 9), `${PUBLIC_BASE_URL}/sub/${referenced}`],
      }),
    });
    if (response.ok) created.push({ user, token: ((await response.clone().json()) as { token: string }).token });
    return response;
  });
  const addTimes = await timeEach(created, ({ user, token }) =>
    fetch(`${instance.base}/api/v1/subs/${token}/sources`, {
      method: 'POST',
      headers: api(user),
      body: JSON.stringify({ sources: lines(900_000_000 + user, 5, 9) }),
    }),
  );
  await timeEach(created, ({ user, token }) =>
    fetch(`${instance.base}/api/v1/subs/${token}`, { method: 'DELETE', headers: { 'api-token': userToken(user) } }),
  );
  await instance.stop();
  return {
    link_cold: summary(cold),
    link_warm: { p50_ms: warm.p50_ms, p99_ms: warm.p99_ms, requests_per_second: warm.requests_per_second },
    list_first: summary(listCold),
    list_again: summary(listWarm),
    create: summary(createTimes),
    add_sources: summary(addTimes),
    rss_mib_after_warm_up: rssMiB,
  };
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'subweave-scale-'));
  const env = {
    ...process.env,
    DATABASE_URL,
    PUBLIC_BASE_URL,
    MAX_SUBSCRIPTIONS_PER_USER: '10',
    RATE_LIMIT_PUBLIC_PER_MIN: '0',
    RATE_LIMIT_API_PER_MIN: '0',
    RATE_LIMIT_ANON_PER_MIN: '0',
    AUTO_BAN_VIOLATIONS: '0',
    LOG_LEVEL: 'warn',
  };
  if (!options.reuse) await adminQuery(`drop database if exists ${databaseName()} with (force)`);
  await adminQuery(`create database ${databaseName()}`).catch((error: Error) => {
    if (!options.reuse || !/already exists/.test(error.message)) throw error;
  });
  await run(process.execPath, ['dist/cli.js', 'migrate'], { env });

  const client = new pg.Client({ connectionString: DATABASE_URL });
  client.on('error', (error) => console.error('seed connection:', error.message));
  await client.connect();
  const results = [];
  const table = [
    '| size | users / subs / sources | link cold p50 / p99 | link warm p50 / p99 (req/s) | list p50 / p99 (again) | create p50 / p99 | add p50 / p99 | RSS | load 1m |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const [step, fraction] of [0.01, 0.1, 1].map((f, i) => [i, f * SCALE] as const)) {
    const { users } = sizeAt(fraction);
    const have = await seededUsers(client);
    if (have > users) {
      console.error(`skipping ${fraction}: the database already holds ${have} users`);
      continue;
    }
    const seedStarted = performance.now();
    const seeded = have < users ? await seedUsers(client, have, users) : null;
    const seedSeconds = Number(((performance.now() - seedStarted) / 1000).toFixed(1));
    const counts = await client.query<{ users: string; subscriptions: string; sources: string }>(
      `select (select count(*) from users) as users, (select count(*) from subscriptions) as subscriptions,
              (select count(*) from sources) as sources`,
    );
    const loadBefore = load();
    const figures = await measureStep(
      () => startServiceProcess(env, { serveArgs: ['--role', 'api'], stdio: ['ignore', 'inherit', 'inherit'] }),
      users,
      step,
      dir,
    );
    results.push({
      fraction,
      ...Object.fromEntries(Object.entries(counts.rows[0] ?? {}).map(([k, v]) => [k, Number(v)])),
      seeded_now: seeded,
      seed_seconds: seedSeconds,
      load_average_1m: { before: loadBefore, after: load() },
      ...figures,
    });
    console.error(JSON.stringify(results.at(-1)));
    const [u, s, n] = (['users', 'subscriptions', 'sources'] as const).map((k) =>
      Number(counts.rows[0]?.[k]).toLocaleString('en-US'),
    );
    const pair = (f: { p50_ms: number; p99_ms: number }) => `${f.p50_ms} / ${f.p99_ms} ms`;
    table.push(
      `| ${fraction * 100}% | ${u} / ${s} / ${n} | ${pair(figures.link_cold)} | ${pair(figures.link_warm)} ` +
        `(${figures.link_warm.requests_per_second}) | ${pair(figures.list_first)} (${pair(figures.list_again)}) | ` +
        `${pair(figures.create)} | ${pair(figures.add_sources)} | ${figures.rss_mib_after_warm_up} MiB | ` +
        `${loadBefore} |`,
    );
  }
  await client.end();
  console.log(table.join('\n'));
  console.log(
    JSON.stringify(
      {
        machine: { cores: cpus().length, model: cpus()[0]?.model },
        settings: {
          samples: SAMPLES,
          creates: CREATES,
          seconds: Number(options.seconds),
          connections: Number(options.connections),
        },
        results,
      },
      null,
      2,
    ),
  );
  if (!options.keep && !options.reuse) await adminQuery(`drop database if exists ${databaseName()} with (force)`);
  rmSync(dir, { recursive: true, force: true });
}

await main();
