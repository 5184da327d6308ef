// Webhook delivery throughput: messages per second from one instance to a local receiver that answers 200 at once,
// on SQLite (a temporary file) or the PostgreSQL of BENCH_DATABASE_URL; the figure is in docs/benchmarks.md.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { createDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { inTransaction } from '../src/db/executor.js';
import { createContext } from '../src/context.js';
import { writeEvents } from '../src/events/outbox.js';
import { userEvent } from '../src/events/subjects.js';

const MESSAGES = Number(process.env['BENCH_MESSAGES'] ?? 3000);
const CONCURRENCY = process.env['WEBHOOK_CONCURRENCY'] ?? '8';

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.end('ok'));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const receiver = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

const dir = mkdtempSync(join(tmpdir(), 'subweave-bench-'));
const url = process.env['BENCH_DATABASE_URL'] ?? `sqlite:${join(dir, 'bench.db')}`;
const database = createDatabase(url);
await migrateToLatest(database);
const config = loadConfig({
  DATABASE_URL: url,
  FETCH_ALLOW_PRIVATE: 'true',
  LOG_LEVEL: 'silent',
  WEBHOOK_POLL_MS: '20',
  WEBHOOK_CONCURRENCY: CONCURRENCY,
});
const context = await createContext(config, database, { redis: null });
const endpoint = await context.webhooks.create(null, { url: receiver, events: ['user.created'] });
await inTransaction(database.db, (trx) =>
  writeEvents(
    trx,
    Array.from({ length: MESSAGES }, (_, i) => userEvent('user.created', i + 1)),
  ),
);

const delivered = async () =>
  Number(
    (
      await database.db
        .selectFrom('webhook_messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('endpoint_id', '=', endpoint.id)
        .where('status', '=', 'delivered')
        .executeTakeFirst()
    )?.n ?? 0,
  );
const started = performance.now();
context.webhookDelivery.start();
while ((await delivered()) < MESSAGES) await new Promise((resolve) => setTimeout(resolve, 20));
const seconds = (performance.now() - started) / 1000;
console.log(
  `${url.startsWith('sqlite') ? 'sqlite' : 'postgres'}: ${MESSAGES} messages in ${seconds.toFixed(2)} s = ` +
    `${Math.round(MESSAGES / seconds)} messages/s (WEBHOOK_CONCURRENCY=${CONCURRENCY})`,
);
await context.close();
await database.close();
server.close();
rmSync(dir, { recursive: true, force: true });
