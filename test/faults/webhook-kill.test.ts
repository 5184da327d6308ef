// SIGKILL of a service process with undelivered webhook messages (docs/webhooks.md): some waiting for a retry after a
// 500, some leased mid-delivery to a receiver that holds the request open. After a restart each arrives, with the
// webhook-id of its first attempt and a signature the standardwebhooks package accepts.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT_MS, spawnServe } from '../support/cli.js';
import { describeEachDatabase, scratchDatabaseUrl } from '../support/harness.js';
import { freePort, waitFor } from '../../scripts/support/private-services.js';
import { startReceiver, verifyDelivery, type Answer, type WebhookReceiver } from '../support/webhook-receiver.js';
import { sendAdminRequest } from '../../src/modules/admin/admin-client.js';
import { createDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { freshUserId } from '../support/factories.js';

const SECRET = 'kill-test-secret-of-at-least-32-characters';
const USERS = 4;

describeEachDatabase('webhook messages across a SIGKILL', (kind) => {
  let receiver: WebhookReceiver;
  let scratch: { url: string; cleanup: () => Promise<void> };
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    receiver = await startReceiver();
    scratch = await scratchDatabaseUrl(kind);
    // Creates the SQLite file's folder too, which `serve` expects to exist.
    const database = createDatabase(scratch.url);
    await migrateToLatest(database);
    await database.close();
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await receiver?.close();
    await scratch?.cleanup();
  });

  it(
    'delivers every pending and leased message after a restart, same webhook-id, valid signature',
    { timeout: CLI_TEST_TIMEOUT_MS },
    async () => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const env = {
        DATABASE_URL: scratch.url,
        PORT: String(port),
        HOST: '127.0.0.1',
        ADMIN_SECRET: SECRET,
        FETCH_ALLOW_PRIVATE: 'true',
        LOG_LEVEL: 'warn',
        WEBHOOK_POLL_MS: '50',
        // Enough quick retries to outlast the kill and restart; a 3 s deadline, so a lease lasts 12 s.
        WEBHOOK_RETRY_DELAYS: Array.from({ length: 20 }, () => '1').join(','),
        WEBHOOK_TIMEOUT_MS: '3000',
      };
      const serve = async () => {
        const child = await spawnServe(env);
        children.push(child);
        let output = '';
        for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => (output += chunk));
        const healthy = async () => (await fetch(`${base}/healthz`).catch(() => null))?.status === 200;
        await waitFor(60_000, async () => child.exitCode !== null || (await healthy()));
        expect(await healthy(), output).toBe(true);
        return child;
      };
      const admin = async (method: string, path: string, body?: unknown) => {
        const answer = await sendAdminRequest(base, SECRET, { method, path, body });
        expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
        return answer.body as Record<string, string>;
      };

      let restarted = false;
      const answers: Record<string, Answer> = { '/flaky': 500, '/held': 'hold' };
      for (const path of Object.keys(answers)) receiver.answer(path, () => (restarted ? 200 : answers[path]!));
      const first = await serve();
      const flaky = await admin('POST', '/webhooks', { url: `${receiver.origin}/flaky`, events: ['user.created'] });
      const held = await admin('POST', '/webhooks', { url: `${receiver.origin}/held`, events: ['user.created'] });
      for (let i = 0; i < USERS; i += 1) await admin('POST', '/users', { user_id: freshUserId() });

      const ids = (path: string, status?: number) =>
        new Set(
          receiver
            .at(path)
            .filter((d) => status === undefined || d.status === status)
            .map((d) => String(d.headers['webhook-id'])),
        );
      // Every message was tried once: the flaky ones answered 500, the held ones are still waiting for an answer.
      expect(await waitFor(30_000, () => ids('/flaky').size === USERS && ids('/held').size === USERS)).toBe(true);
      const exited = new Promise((resolve) => first.once('exit', resolve));
      first.kill('SIGKILL');
      await exited;

      const database = createDatabase(scratch.url);
      try {
        const messages = await database.db
          .selectFrom('webhook_messages')
          .select(['endpoint_id', 'status', 'lease_until'])
          .execute();
        expect(messages).toHaveLength(2 * USERS);
        expect(messages.every((m) => m.status === 'pending')).toBe(true);
        const leased = messages.filter((m) => m.endpoint_id === held['id'] && m.lease_until !== null);
        expect(leased.length).toBeGreaterThan(0);
        expect(receiver.at('/flaky').every((d) => d.status === 500)).toBe(true);
        expect(receiver.at('/held').every((d) => d.status === null)).toBe(true);

        restarted = true;
        await serve();
        const arrived = (path: string) => ids(path, 200).size === USERS;
        expect(await waitFor(60_000, () => arrived('/flaky') && arrived('/held'))).toBe(true);
        for (const [path, endpoint] of [
          ['/flaky', flaky],
          ['/held', held],
        ] as const) {
          expect(ids(path, 200)).toEqual(ids(path));
          for (const delivery of receiver.at(path).filter((d) => d.status === 200)) {
            expect(verifyDelivery(delivery, endpoint['secret']!).type).toBe('user.created');
          }
        }
        expect(
          await waitFor(10_000, async () => {
            const rows = await database.db.selectFrom('webhook_messages').select('status').execute();
            return rows.every((row) => row.status === 'delivered');
          }),
        ).toBe(true);
      } finally {
        await database.close();
      }
    },
  );
});
