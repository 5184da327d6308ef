// The warm public link under wrk while nothing is delivered, and while 1,000 webhook messages are delivered to a slow
// receiver and retried against an unreachable one, in the same service process or (BENCH_SPLIT=1) by a `--role
// worker` process beside a `--role api` one, on SQLite or the PostgreSQL of BENCH_DATABASE_URL; the figures are in
// docs/benchmarks.md.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import pg from 'pg';
import { createDatabase } from '../src/db/database.js';
import { inTransaction } from '../src/db/executor.js';
import { writeEvents } from '../src/events/outbox.js';
import { userEvent } from '../src/events/subjects.js';
import { sendAdminRequest } from '../src/modules/admin/admin-client.js';
import { freePort } from '../scripts/support/private-services.js';
import { median } from '../scripts/support/stats.js';
import { cpuSeconds, seedLink } from './link-seed.js';
import { startServiceProcess, type ServiceProcess } from './service-process.js';
import { wrk, type WrkResult } from './wrk.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
/** Messages in all: half to the slow receiver, half to the unreachable one. */
const MESSAGES = Number(process.env['BENCH_MESSAGES'] ?? 1000);
const SLOW_MS = Number(process.env['BENCH_SLOW_MS'] ?? 2000);
const ADMIN_SECRET = 'bench-webhooks-load-of-at-least-32-characters';
/** Deliveries in a worker process of their own (`serve --role worker`), the link in an `--role api` one. */
const SPLIT = process.env['BENCH_SPLIT'] === '1';

/** Answers 200 after SLOW_MS, so every delivery slot it gets stays taken that long. */
async function slowReceiver(): Promise<{ url: string; close(): void }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => setTimeout(() => response.end('ok'), SLOW_MS));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

async function admin(service: ServiceProcess, method: string, path: string, body?: unknown) {
  const answer = await sendAdminRequest(service.base, ADMIN_SECRET, { method, path, body });
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as { id: string };
}

const load = () => (loadavg()[0] ?? 0).toFixed(2);

/** The service's event-loop delay while wrk ran (bench/loop-delay-probe.mjs). */
interface LoopDelay {
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

interface Measured extends WrkResult {
  load_average_1m: string;
  loop_delay: LoopDelay;
  /** CPU seconds the service spent while wrk ran. */
  cpu_seconds: number;
}

interface Round {
  idle: Measured;
  delivering: Measured & { attempts_during: number; pending_after: number };
}

/** wrk against the link, with the service's event-loop delay over the same seconds. */
async function measure(service: ServiceProcess, url: string): Promise<Measured> {
  const loadAverage = load();
  service.child.send('loop-delay:reset');
  const cpuBefore = cpuSeconds(service.pid);
  const result = await wrk(url, { connections: CONNECTIONS, seconds: SECONDS });
  const cpu = Number((cpuSeconds(service.pid) - cpuBefore).toFixed(2));
  const loopDelay = new Promise<LoopDelay>((resolve) =>
    service.child.once('message', (data) => resolve((data as { loopDelay: LoopDelay }).loopDelay)),
  );
  service.child.send('loop-delay:read');
  return { ...result, load_average_1m: loadAverage, loop_delay: await loopDelay, cpu_seconds: cpu };
}

/**
 * The database: a new SQLite file, or a schema of its own on the PostgreSQL server of BENCH_DATABASE_URL (dropped at
 * the end).
 */
async function benchDatabase(): Promise<{ url?: string; drop(): Promise<void> }> {
  const server = process.env['BENCH_DATABASE_URL'];
  if (!server) return { drop: async () => undefined };
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  const options = encodeURIComponent(`-c search_path=${schema}`);
  return {
    url: `${server}${server.includes('?') ? '&' : '?'}options=${options}`,
    drop: async () => {
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    },
  };
}

async function main(): Promise<void> {
  const target = await benchDatabase();
  const link = await seedLink('info', target.url);
  const slow = await slowReceiver();
  const unreachable = `http://127.0.0.1:${await freePort()}/down`;
  const env = {
    ...link.env,
    ADMIN_SECRET,
    WEBHOOK_POLL_MS: '100',
    // Refused attempts come back every second for the whole measurement.
    WEBHOOK_RETRY_DELAYS: Array.from({ length: 20 }, () => '1').join(','),
  };
  const database = createDatabase(String(link.env['DATABASE_URL']));
  const attempts = async () =>
    Number(
      (
        await database.db
          .selectFrom('webhook_attempts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirst()
      )?.n ?? 0,
    );
  const pending = async () =>
    Number(
      (
        await database.db
          .selectFrom('webhook_messages')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', 'pending')
          .executeTakeFirst()
      )?.n ?? 0,
    );
  const rounds: Round[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const service = await startServiceProcess(env, {
        nodeArgs: ['--import', './bench/loop-delay-probe.mjs'],
        serveArgs: SPLIT ? ['--role', 'api'] : [],
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      // `serve --role worker` on the same database: it delivers, and answers nothing.
      const worker = SPLIT ? await startServiceProcess(env, { serveArgs: ['--role', 'worker'], serving: false }) : null;
      try {
        const url = `${service.base}${link.path}`;
        await wrk(url, { connections: CONNECTIONS, seconds: 2 });
        const idle = await measure(service, url);

        const endpoints = [
          await admin(service, 'POST', '/webhooks', { url: slow.url, events: ['user.created'] }),
          await admin(service, 'POST', '/webhooks', { url: unreachable, events: ['user.created'] }),
        ];
        await inTransaction(database.db, (trx) =>
          writeEvents(
            trx,
            Array.from({ length: MESSAGES / 2 }, (_, i) => userEvent('user.created', 100_000 + i)),
          ),
        );
        // Let the workers fill their slots before measuring.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const attemptsBefore = await attempts();
        const busy = await measure(service, url);
        const attemptsDuring = (await attempts()) - attemptsBefore;
        const stillPending = await pending();
        for (const endpoint of endpoints) await admin(service, 'DELETE', `/webhooks/${endpoint.id}`);
        rounds.push({
          idle,
          delivering: { ...busy, attempts_during: attemptsDuring, pending_after: stillPending },
        });
        console.error(`round ${round + 1}: ${JSON.stringify(rounds.at(-1))}`);
      } finally {
        await service.stop();
        await worker?.stop();
      }
    }
  } finally {
    slow.close();
    await database.close();
    await link.close();
    await target.drop();
  }
  const summary = (pick: (r: Round) => Measured) => ({
    p50_ms: median(rounds.map((r) => pick(r).p50_ms)),
    p99_ms: median(rounds.map((r) => pick(r).p99_ms)),
    requests_per_second: median(rounds.map((r) => pick(r).requests_per_second)),
    errors: rounds.reduce((sum, r) => sum + pick(r).errors, 0),
    loop_delay_max_ms: median(rounds.map((r) => pick(r).loop_delay.max_ms)),
  });
  console.log(
    JSON.stringify(
      {
        database: target.url ? 'postgres' : 'sqlite',
        deliveries: SPLIT ? 'a --role worker process beside the --role api one' : 'in the service process',
        seconds: SECONDS,
        connections: CONNECTIONS,
        messages: MESSAGES,
        slow_receiver_ms: SLOW_MS,
        rounds,
        median_idle: summary((r) => r.idle),
        median_delivering: summary((r) => r.delivering),
      },
      null,
      2,
    ),
  );
}

await main();
