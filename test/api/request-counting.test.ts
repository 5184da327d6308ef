// Request counting against a real database: no write per request, periodic and shutdown flushes, additive instances.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../src/db/database.js';
import { RequestCounter } from '../../src/modules/stats/request-counter.js';
import { addRequestCounts } from '../../src/modules/stats/stats.store.js';
import { createUser } from '../../src/modules/users/users.service.js';
import {
  startTestApp,
  describeEachDatabase,
  openSecondHandle,
  openTestDatabase,
  signedInject,
  testConfig,
  type TestDatabase,
} from '../support/harness.js';

const SECRET = 'counting-secret-of-at-least-32-characters';
const HOUR_MS = 3_600_000;

async function storedCounts(database: DatabaseHandle): Promise<Record<string, number>> {
  const rows = await database.db.selectFrom('request_counts').select(['kind', 'count']).execute();
  const byKind: Record<string, number> = {};
  for (const row of rows) byKind[row.kind] = (byKind[row.kind] ?? 0) + Number(row.count);
  return byKind;
}

function counterFor(database: DatabaseHandle, flushIntervalMs: number, clock?: () => number): RequestCounter {
  return new RequestCounter({
    write: (rows) => addRequestCounts(database.db, rows),
    flushIntervalMs,
    ...(clock ? { clock } : {}),
  });
}

describeEachDatabase('request counting', (kind) => {
  let testDatabase: TestDatabase;
  let app: FastifyInstance | null = null;

  beforeEach(async () => {
    testDatabase = await openTestDatabase(kind);
  });
  afterEach(async () => {
    await app?.close();
    app = null;
    await testDatabase.close();
  });

  async function start(counter: RequestCounter): Promise<FastifyInstance> {
    app = (await startTestApp(testConfig({ ADMIN_SECRET: SECRET }), testDatabase.handle, { requestCounter: counter }))
      .app;
    return app;
  }

  /** One request of each kind: public, user (twice), provider, admin, infra. */
  async function sendOneOfEach(server: FastifyInstance): Promise<void> {
    const user = await createUser(testDatabase.handle.db, 4242);
    await server.inject({ method: 'GET', url: '/api/v1/sub/no-such-token' });
    await server.inject({ method: 'GET', url: '/api/v1/subs', headers: { 'api-token': user.api_token } });
    await server.inject({ method: 'GET', url: '/api/v1/me', headers: { 'api-token': user.api_token } });
    await server.inject({ method: 'GET', url: '/api/v1/providers/4242' });
    expect((await signedInject(server, SECRET, 'GET', '/users/4242')).statusCode).toBe(200);
    await server.inject({ method: 'GET', url: '/healthz' });
  }

  it('counts in memory only (the table is unchanged per request) and writes everything on app.close()', async () => {
    const counter = counterFor(testDatabase.handle, HOUR_MS);
    const server = await start(counter);
    await sendOneOfEach(server);
    expect(await storedCounts(testDatabase.handle)).toEqual({});
    expect(counter.pendingRows().reduce((sum, row) => sum + row.count, 0)).toBe(6);

    await server.close();
    app = null;
    expect(await storedCounts(testDatabase.handle)).toEqual({ public: 1, user: 2, provider: 1, admin: 1, infra: 1 });
    expect(counter.pendingRows()).toEqual([]);
  });

  it('writes the counts periodically while running', async () => {
    const server = await start(counterFor(testDatabase.handle, 50));
    await sendOneOfEach(server);
    await vi.waitFor(
      async () => expect(await storedCounts(testDatabase.handle)).toMatchObject({ public: 1, user: 2, admin: 1 }),
      {
        timeout: 5000,
      },
    );
  });

  it('the default counter (created by createContext) is flushed by app.close()', async () => {
    app = (await startTestApp(testConfig({ ADMIN_SECRET: SECRET }), testDatabase.handle)).app;
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.inject({ method: 'GET', url: '/sub/abc' });
    await app.close();
    app = null;
    expect(await storedCounts(testDatabase.handle)).toEqual({ infra: 1, public: 1 });
  });

  it('adds the counts of several instances flushing concurrently into the same buckets', async () => {
    const second = kind === 'postgres' ? openSecondHandle(testDatabase) : testDatabase.handle;
    try {
      const clock = () => Date.parse('2025-03-10T10:15:00.000Z');
      const a = counterFor(testDatabase.handle, HOUR_MS, clock);
      const b = counterFor(second, HOUR_MS, clock);
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 5; i++) a.count('public');
        for (let i = 0; i < 7; i++) b.count('public');
        b.count('admin');
        await Promise.all([a.flush(), b.flush()]);
      }
      const rows = await testDatabase.handle.db.selectFrom('request_counts').selectAll().orderBy('kind').execute();
      expect(rows.map((row) => ({ ...row, count: Number(row.count) }))).toEqual([
        { bucket_start: '2025-03-10T10:00:00.000Z', kind: 'admin', count: 3 },
        { bucket_start: '2025-03-10T10:00:00.000Z', kind: 'public', count: 36 },
      ]);
    } finally {
      if (second !== testDatabase.handle) await second.close();
    }
  });

  it("stats include another instance's counts once it has flushed", async () => {
    const server = await start(counterFor(testDatabase.handle, HOUR_MS));
    const other = counterFor(testDatabase.handle, HOUR_MS);
    for (let i = 0; i < 4; i++) other.count('provider');
    await other.flush();
    const res = await signedInject(server, SECRET, 'GET', '/stats?period=day');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ requests_by_kind: { provider: number } }>().requests_by_kind.provider).toBe(4);
  });
});
