// The warm public link under wrk while nothing is delivered, and while 1,000 webhook messages are delivered to a slow
// receiver and retried against an unreachable one, in the same service process; the figures are in docs/benchmarks.md.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { createDatabase } from '../src/db/database.js';
import { inTransaction } from '../src/db/executor.js';
import { writeEvents } from '../src/events/outbox.js';
import { userEvent } from '../src/events/subjects.js';
import { sendAdminRequest } from '../src/modules/admin/admin-client.js';
import { freePort } from '../scripts/support/private-services.js';
import { median } from '../scripts/support/stats.js';
import { seedLink } from './link-seed.js';
import { startServiceProcess, type ServiceProcess } from './service-process.js';
import { wrk, type WrkResult } from './wrk.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
/** Messages in all: half to the slow receiver, half to the unreachable one. */
const MESSAGES = Number(process.env['BENCH_MESSAGES'] ?? 1000);
const SLOW_MS = Number(process.env['BENCH_SLOW_MS'] ?? 2000);
const ADMIN_SECRET = 'bench-webhooks-load';

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

interface Round {
  idle: WrkResult & { load_average_1m: string };
  delivering: WrkResult & { load_average_1m: string; attempts_during: number; pending_after: number };
}

async function main(): Promise<void> {
  const link = await seedLink('info');
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
      const service = await startServiceProcess(env);
      try {
        const url = `${service.base}${link.path}`;
        await wrk(url, { connections: CONNECTIONS, seconds: 2 });
        const idleLoad = load();
        const idle = await wrk(url, { connections: CONNECTIONS, seconds: SECONDS });

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
        const busyLoad = load();
        const attemptsBefore = await attempts();
        const busy = await wrk(url, { connections: CONNECTIONS, seconds: SECONDS });
        const attemptsDuring = (await attempts()) - attemptsBefore;
        const stillPending = await pending();
        for (const endpoint of endpoints) await admin(service, 'DELETE', `/webhooks/${endpoint.id}`);
        rounds.push({
          idle: { ...idle, load_average_1m: idleLoad },
          delivering: {
            ...busy,
            load_average_1m: busyLoad,
            attempts_during: attemptsDuring,
            pending_after: stillPending,
          },
        });
        console.error(`round ${round + 1}: ${JSON.stringify(rounds.at(-1))}`);
      } finally {
        await service.stop();
      }
    }
  } finally {
    slow.close();
    await database.close();
    await link.close();
  }
  const summary = (pick: (r: Round) => WrkResult) => ({
    p50_ms: median(rounds.map((r) => pick(r).p50_ms)),
    p99_ms: median(rounds.map((r) => pick(r).p99_ms)),
    requests_per_second: median(rounds.map((r) => pick(r).requests_per_second)),
    errors: rounds.reduce((sum, r) => sum + pick(r).errors, 0),
  });
  console.log(
    JSON.stringify(
      {
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
