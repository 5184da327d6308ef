// Two instances on one database converge through the change log: within a second without Redis, at once with it.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createUser } from '../../src/modules/users/users.service.js';
import type { Redis } from '../../src/redis.js';
import {
  scratchDatabaseUrl,
  signedInject,
  startTestApp,
  testConfig,
  testDatabaseKinds,
  connectedRedis,
  TEST_ADMIN_SECRET,
} from '../support/harness.js';
import { freshUserId } from '../support/factories.js';

const redisUrl = process.env['TEST_REDIS_URL'];
/** With Redis the poll is made slow on purpose, so only the relayed notice can explain a fast convergence. */
const SLOW_POLL_MS = 5_000;

for (const kind of testDatabaseKinds()) {
  for (const withRedis of [false, true]) {
    describe.skipIf(withRedis && !redisUrl)(`two instances ${withRedis ? 'with' : 'without'} Redis [${kind}]`, () => {
      const handles: DatabaseHandle[] = [];
      const apps: FastifyInstance[] = [];
      const connections: Redis[] = [];
      let cleanup = async () => {};

      beforeAll(async () => {
        const scratch = await scratchDatabaseUrl(kind);
        cleanup = scratch.cleanup;
        const config = testConfig({
          ADMIN_SECRET: TEST_ADMIN_SECRET,
          REDIS_PREFIX: `test-${randomBytes(6).toString('hex')}`,
        });
        for (let i = 0; i < 2; i++) {
          const handle = createDatabase(scratch.url);
          await migrateToLatest(handle);
          const redis = withRedis ? await connectedRedis(redisUrl as string) : null;
          if (redis) connections.push(redis);
          handles.push(handle);
          const { app } = await startTestApp(config, handle, {
            redis,
            ...(withRedis ? { changePollMs: SLOW_POLL_MS } : {}),
          });
          apps.push(app);
        }
      });

      afterAll(async () => {
        for (const app of apps) await app.close();
        for (const redis of connections) redis.disconnect();
        for (const handle of handles) await handle.close();
        await cleanup();
      });

      const plainLink = async (app: FastifyInstance, token: string) => {
        const response = await app.inject({ method: 'GET', url: `/sub/${token}?format=plain` });
        return response.statusCode === 200 ? response.body : `status ${response.statusCode}`;
      };

      /** Milliseconds until `check` holds on the other instance, or null after `limitMs`. */
      async function convergesWithin(limitMs: number, check: () => Promise<boolean>): Promise<number | null> {
        const started = Date.now();
        while (Date.now() - started <= limitMs) {
          if (await check()) return Date.now() - started;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        return null;
      }

      // Without Redis the contract is 1 s; the extra margin only absorbs a loaded test machine.
      const limitMs = withRedis ? 1_000 : 1_500;

      it('serves a write and a deletion made on one instance from the other', async () => {
        const [first, second] = apps as [FastifyInstance, FastifyInstance];
        const userId = freshUserId();
        const { api_token: apiToken } = await createUser((handles[0] as DatabaseHandle).db, userId);
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
        const addSeen = await convergesWithin(limitMs, async () => (await plainLink(second, token)) === expected);
        expect(addSeen).not.toBeNull();
        if (withRedis) expect(addSeen).toBeLessThan(SLOW_POLL_MS / 5);

        const deleted = await first.inject({ method: 'DELETE', url: `/api/v1/subs/${token}`, headers });
        expect(deleted.statusCode).toBe(204);
        expect(
          await convergesWithin(limitMs, async () => (await plainLink(second, token)) === 'status 404'),
        ).not.toBeNull();
      });

      it('serves format rules changed on one instance from the other', async () => {
        const [first, second] = apps as [FastifyInstance, FastifyInstance];
        const { api_token: apiToken } = await createUser((handles[0] as DatabaseHandle).db, freshUserId());
        const created = await first.inject({
          method: 'POST',
          url: '/api/v1/subs',
          headers: { 'api-token': apiToken },
          payload: { name: 'rules', sources: ['trojan://pw@one.example.com:443'] },
        });
        const token = created.json<{ token: string }>().token;
        const ruleOn = async (app: FastifyInstance) =>
          (await app.inject({ method: 'GET', url: `/sub/${token}`, headers: { 'user-agent': 'mytool/1' } })).headers[
            'subweave-rule'
          ];
        expect(await ruleOn(second)).toBe('default');
        const rules = [{ id: 'tool', header: 'user-agent', match: 'prefix', value: 'mytool', result: 'plain' }];
        expect((await signedInject(first, TEST_ADMIN_SECRET, 'PUT', '/format-rules', { rules })).statusCode).toBe(200);
        const seen = await convergesWithin(limitMs, async () => (await ruleOn(second)) === 'tool');
        expect(seen).not.toBeNull();
        if (withRedis) expect(seen).toBeLessThan(SLOW_POLL_MS / 5);
        expect((await signedInject(first, TEST_ADMIN_SECRET, 'DELETE', '/format-rules')).statusCode).toBe(200);
        expect(await convergesWithin(limitMs, async () => (await ruleOn(second)) === 'default')).not.toBeNull();
      });

      it('shows branding changed on one instance from the other', async () => {
        const [first, second] = apps as [FastifyInstance, FastifyInstance];
        const nameOn = async (app: FastifyInstance) =>
          (await app.inject({ method: 'GET', url: '/api/v1/branding' })).json<{ service_name: string | null }>()
            .service_name;
        expect(await nameOn(second)).toBeNull();
        const set = await signedInject(first, TEST_ADMIN_SECRET, 'PUT', '/branding', { service_name: 'Relayed' });
        expect(set.statusCode, set.body).toBe(200);
        const seen = await convergesWithin(limitMs, async () => (await nameOn(second)) === 'Relayed');
        expect(seen).not.toBeNull();
        if (withRedis) expect(seen).toBeLessThan(SLOW_POLL_MS / 5);
        expect(
          (await signedInject(first, TEST_ADMIN_SECRET, 'PUT', '/branding', { service_name: null })).statusCode,
        ).toBe(200);
        expect(await convergesWithin(limitMs, async () => (await nameOn(second)) === null)).not.toBeNull();
      });
    });
  }
}
