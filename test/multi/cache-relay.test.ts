// Two instances on one database and one Redis: a write through one drops the other's cached link output.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createUser } from '../../src/modules/users/users.service.js';
import { createRedis, type Redis } from '../../src/redis.js';
import { testConfig, testDatabaseKinds } from '../support/harness.js';
import { scratchDatabaseUrl } from '../support/processes.js';

const redisUrl = process.env['TEST_REDIS_URL'];

for (const kind of testDatabaseKinds()) {
  describe.skipIf(!redisUrl)(`render cache across instances through Redis [${kind}]`, () => {
    const handles: DatabaseHandle[] = [];
    const apps: FastifyInstance[] = [];
    const connections: Redis[] = [];
    let cleanup = async () => {};

    beforeAll(async () => {
      const scratch = await scratchDatabaseUrl(kind);
      cleanup = scratch.cleanup;
      const url = scratch.url;
      const prefix = `test-${randomBytes(6).toString('hex')}`;
      for (let i = 0; i < 2; i++) {
        const handle = createDatabase(url);
        await migrateToLatest(handle);
        const redis = createRedis(redisUrl as string);
        handles.push(handle);
        connections.push(redis);
        apps.push(await buildApp({ config: testConfig(), database: handle, redis, redisPrefix: prefix }));
      }
    });

    afterAll(async () => {
      for (const app of apps) await app.close();
      for (const redis of connections) await redis.quit();
      for (const handle of handles) await handle.close();
      await cleanup();
    });

    const plainLink = async (app: FastifyInstance, token: string) =>
      (await app.inject({ method: 'GET', url: `/sub/${token}?format=plain` })).body;

    async function eventually(check: () => Promise<boolean>): Promise<boolean> {
      for (let i = 0; i < 50; i++) {
        if (await check()) return true;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return false;
    }

    it('serves the new output on the other instance within a second of a write', async () => {
      const [first, second] = apps as [FastifyInstance, FastifyInstance];
      const { api_token: apiToken } = await createUser((handles[0] as DatabaseHandle).db, 7001);
      const headers = { 'api-token': apiToken };
      const created = await first.inject({
        method: 'POST',
        url: '/api/v1/subs',
        headers,
        payload: { name: 'relay', sources: ['trojan://pw@one.example.com:443'] },
      });
      expect(created.statusCode).toBe(201);
      const token = created.json<{ token: string }>().token;

      expect(await plainLink(second, token)).toBe('trojan://pw@one.example.com:443#one.example.com');

      const added = await first.inject({
        method: 'POST',
        url: `/api/v1/subs/${token}/sources`,
        headers,
        payload: { sources: ['trojan://pw@two.example.com:443#Two'] },
      });
      expect(added.statusCode).toBe(200);
      const expected = 'trojan://pw@one.example.com:443#one.example.com\ntrojan://pw@two.example.com:443#Two';
      expect(await eventually(async () => (await plainLink(second, token)) === expected)).toBe(true);
    });
  });
}
