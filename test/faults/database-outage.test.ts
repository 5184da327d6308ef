// PostgreSQL going away under a running app: idle connections killed by the server, and a whole outage through a cut link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { createUser } from '../../src/modules/users/users.service.js';
import { openTestDatabase, startTestApp, testConfig, type TestDatabase } from '../support/harness.js';
import { cuttableLink, type CuttableLink } from '../support/faults.js';
import { waitFor } from '../../scripts/support/private-services.js';

const baseUrl = process.env['TEST_DATABASE_URL'];
let nextUserId = 8_000_000 + Math.floor(Math.random() * 1_000_000) * 10;

describe.skipIf(!baseUrl)('PostgreSQL failures under a running app [postgres]', () => {
  let database: TestDatabase;
  let link: CuttableLink;
  let proxied: DatabaseHandle;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    const target = new URL(baseUrl as string);
    link = await cuttableLink(target.hostname, Number(target.port || 5432));
    const viaLink = new URL(baseUrl as string);
    viaLink.hostname = '127.0.0.1';
    viaLink.port = String(link.port);
    proxied = createDatabase(viaLink.toString(), { schema: database.schema as string, poolSize: 4 });
    app = (await startTestApp(testConfig(), proxied)).app;
  });

  afterAll(async () => {
    await link?.mend().catch(() => undefined);
    await app?.close();
    await proxied?.close();
    await link?.close();
    await database?.close();
  });

  async function newSubscription(): Promise<{ apiToken: string; token: string }> {
    const { api_token: apiToken } = await createUser(database.handle.db, nextUserId++);
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/subs',
      headers: { 'api-token': apiToken },
      payload: { name: 'outage', sources: ['trojan://pw@kept.example.com:443#Kept'] },
    });
    expect(created.statusCode).toBe(201);
    return { apiToken, token: created.json<{ token: string }>().token };
  }

  it("keeps serving after the server terminates the pool's idle connections", async () => {
    const { apiToken } = await newSubscription();
    // Mark every pooled connection with a query only this test runs, so only they are terminated.
    const marker = `marker_${nextUserId}`;
    await Promise.all(
      Array.from({ length: 4 }, () => sql.raw(`select '${marker}', pg_sleep(0.05)`).execute(proxied.db)),
    );
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where state = 'idle' and query like $1 and pid <> pg_backend_pid()`,
        [`%${marker}%`],
      );
      expect(rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(
      await waitFor(
        5_000,
        async () =>
          (await app.inject({ method: 'GET', url: '/api/v1/subs', headers: { 'api-token': apiToken } })).statusCode ===
          200,
      ),
    ).toBe(true);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('answers 503 database_unavailable with Retry-After during an outage, serves rendered links, and recovers', async () => {
    const { apiToken, token } = await newSubscription();
    const link1 = await app.inject({ method: 'GET', url: `/sub/${token}?format=plain` });
    expect(link1.statusCode).toBe(200);

    await link.cut();
    const listed = await app.inject({ method: 'GET', url: '/api/v1/subs', headers: { 'api-token': apiToken } });
    expect(listed.statusCode).toBe(503);
    expect(listed.json()).toMatchObject({ error: 'database_unavailable', details: null });
    expect(listed.headers['retry-after']).toMatch(/^\d+$/);

    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({
      status: 'unavailable',
      database: 'unavailable',
      redis: 'off',
      error: 'database_unavailable',
    });

    const cached = await app.inject({ method: 'GET', url: `/sub/${token}?format=plain` });
    expect(cached.statusCode).toBe(200);
    expect(cached.body).toBe(link1.body);

    await link.mend();
    expect(
      await waitFor(10_000, async () => (await app.inject({ method: 'GET', url: '/readyz' })).statusCode === 200),
    ).toBe(true);
    const after = await app.inject({ method: 'GET', url: '/api/v1/subs', headers: { 'api-token': apiToken } });
    expect(after.statusCode).toBe(200);
  });
});
