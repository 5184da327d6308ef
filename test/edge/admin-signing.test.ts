// docs/security.md (Admin signatures): an admin signature cannot be re-targeted by moving bytes between path and body, nor replayed after a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createUser } from '../../src/modules/users/users.service.js';
import { signRequest } from '../../src/modules/admin/signature.js';
import type { Redis } from '../../src/redis.js';
import {
  ADMIN_PREFIX,
  describeEachDatabase,
  openTestDatabase,
  startTestApp,
  testConfig,
  useTestApp,
  type TestDatabase,
  connectedRedis,
  redisUrl,
  uniqueRedisPrefix,
} from '../support/harness.js';
import { expectError } from '../support/expect.js';
import { freshUserId } from '../support/factories.js';

const SECRET = 'signing-secret-of-at-least-32-characters';

/** Sends exactly these bytes under a signature made for another request. */
function sendSigned(
  app: FastifyInstance,
  signed: { method: string; path: string; body?: string; timestamp?: string },
  sent: { path: string; body?: string },
): Promise<LightMyRequestResponse> {
  const timestamp = signed.timestamp ?? String(Date.now());
  const signature = signRequest(SECRET, {
    timestamp,
    method: signed.method,
    pathWithQuery: `${ADMIN_PREFIX}${signed.path}`,
    body: signed.body ?? '',
  });
  return app.inject({
    method: signed.method as 'DELETE',
    url: `${ADMIN_PREFIX}${sent.path}`,
    headers: {
      'x-timestamp': timestamp,
      'x-signature': signature,
      ...(sent.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(sent.body !== undefined ? { payload: sent.body } : {}),
  });
}

describeEachDatabase('edge: bodiless admin routes', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: SECRET });

  it('refuses a signature re-targeted by moving path bytes into the body (400 unexpected_body)', async () => {
    const victim = await t.newUser();
    const path = `/users/${victim.userId}`;
    // Signed: DELETE /users/<id>1 with no body. Sent: DELETE /users/<id> with body "1": the signed string is the same.
    const res = await sendSigned(t.app, { method: 'DELETE', path: `${path}1` }, { path, body: '1' });
    expectError(res, 400, 'unexpected_body');
    expect((await t.admin('GET', path)).statusCode).toBe(200);
  });

  it('refuses any non-empty body other than {} on routes that take none', async () => {
    const user = await t.newUser();
    for (const body of ['3', '[]', 'null', '"x"', '{"user_id":1}', '{} {}']) {
      expectError(await t.admin('POST', `/users/${user.userId}/refresh-token`, body), 400, 'unexpected_body');
      expectError(await t.admin('DELETE', '/whitelist/192.0.2.77', body), 400, 'unexpected_body');
    }
    for (const body of ['{}', ' { } ']) {
      expect((await t.admin('POST', `/users/${user.userId}/refresh-token`, body)).statusCode).toBe(200);
    }
    expect((await t.admin('DELETE', `/users/${user.userId}`, '{}')).statusCode).toBe(204);
  });
});

for (const withRedis of redisUrl ? [false, true] : [false]) {
  describeEachDatabase(`edge: admin signatures across a restart (${withRedis ? 'Redis' : 'no Redis'})`, (kind) => {
    let database: TestDatabase;
    const redisConnections: Redis[] = [];
    const prefix = uniqueRedisPrefix();
    const start = async () => {
      const redis = withRedis ? await connectedRedis(redisUrl as string) : null;
      if (redis) redisConnections.push(redis);
      return (
        await startTestApp(testConfig({ ADMIN_SECRET: SECRET, REDIS_PREFIX: prefix }), database.handle, { redis })
      ).app;
    };
    beforeAll(async () => {
      database = await openTestDatabase(kind);
    });
    afterAll(async () => {
      for (const redis of redisConnections) await redis.quit();
      await database?.close();
    });

    it('refuses a captured signature replayed against the restarted process', async () => {
      const victim = freshUserId();
      await createUser(database.handle.db, victim);
      const signed = { method: 'POST', path: `/users/${victim}/refresh-token` };
      const first = await start();
      const timestamp = String(Date.now());
      expect((await sendSigned(first, { ...signed, timestamp }, signed)).statusCode).toBe(200);
      expectError(await sendSigned(first, { ...signed, timestamp }, signed), 401, 'replayed_request');
      await first.close();

      const second = await start();
      try {
        // The database (and Redis, when there is one) outlives the process: the new one knows the signature.
        const replay = await sendSigned(second, { ...signed, timestamp }, signed);
        expectError(replay, 401, 'replayed_request');
        expect((await sendSigned(second, signed, signed)).statusCode).toBe(200);
      } finally {
        await second.close();
      }
    });
  });
}

describe('edge: admin timestamps without Redis', () => {
  it('accepts, once, a signature made before the process started: the database remembers what it accepted', async () => {
    const database = await openTestDatabase('sqlite');
    const { app } = await startTestApp(testConfig({ ADMIN_SECRET: SECRET }), database.handle, { redis: null });
    try {
      const signed = { method: 'GET', path: '/bans', timestamp: String(Date.now() - 5_000) };
      expect((await sendSigned(app, signed, { path: '/bans' })).statusCode).toBe(200);
      expectError(await sendSigned(app, signed, { path: '/bans' }), 401, 'replayed_request');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
