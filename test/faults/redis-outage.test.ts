// Redis going away and coming back under a running app, and Redis absent at start: the app keeps serving and recovers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  startTestApp,
  openTestDatabase,
  signedInject,
  testConfig,
  type TestDatabase,
  connectedRedis,
  TEST_ADMIN_SECRET,
} from '../support/harness.js';
import { waitFor } from '../support/time.js';
import { freePort, privateRedis, type PrivateRedis } from '../../scripts/support/private-services.js';

const redisHealth = async (app: FastifyInstance) => {
  const response = await app.inject({ method: 'GET', url: '/readyz' });
  return { status: response.statusCode, redis: response.json<{ redis: string }>().redis };
};

describe('Redis failures [sqlite]', () => {
  let database: TestDatabase;
  let redis: PrivateRedis;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
    redis = await privateRedis();
    const config = testConfig({
      REDIS_URL: redis.url,
      ADMIN_SECRET: TEST_ADMIN_SECRET,
      RATE_LIMIT_PUBLIC_PER_MIN: '1000',
    });
    app = (await startTestApp(config, database.handle)).app;
  });

  afterAll(async () => {
    await app?.close();
    await redis?.stop();
    await database?.close();
  });

  it('stays up while Redis is stopped, answers readyz 200 degraded, and uses Redis again once it is back', async () => {
    expect(await waitFor(5_000, async () => (await redisHealth(app)).redis === 'ok')).toBe(true);
    await redis.stop();
    expect(await waitFor(5_000, async () => (await redisHealth(app)).redis === 'degraded')).toBe(true);
    expect((await redisHealth(app)).status).toBe(200);

    // Rate-limited public requests, an admin ban (a change announced on Redis) and signed calls all still work.
    for (let i = 0; i < 5; i++)
      expect(
        (await app.inject({ method: 'GET', url: '/sub/none-such', remoteAddress: '198.51.100.7' })).statusCode,
      ).toBe(404);
    const banned = await signedInject(app, TEST_ADMIN_SECRET, 'POST', '/ban', {
      ip_address: '198.51.100.8',
      duration_seconds: 60,
    });
    expect(banned.statusCode).toBeLessThan(300);
    expect((await app.inject({ method: 'GET', url: '/sub/none-such', remoteAddress: '198.51.100.8' })).statusCode).toBe(
      403,
    );

    await redis.start();
    expect(await waitFor(10_000, async () => (await redisHealth(app)).redis === 'ok')).toBe(true);
    const limited = await app.inject({ method: 'GET', url: '/sub/none-such', remoteAddress: '198.51.100.9' });
    expect(limited.statusCode).toBe(404);
    expect(limited.headers['ratelimit-remaining']).toBeDefined();
    // The counter of that request lives in the restarted Redis (under REDIS_PREFIX), not in this instance's memory.
    const inspector = await connectedRedis(redis.url);
    try {
      expect((await inspector.keys('subweave:*')).length).toBeGreaterThan(0);
    } finally {
      inspector.disconnect();
    }
  });
});

describe('no Redis at start [sqlite]', () => {
  let database: TestDatabase;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
    const config = testConfig({
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      ADMIN_SECRET: TEST_ADMIN_SECRET,
    });
    app = (await startTestApp(config, database.handle)).app;
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('starts, reports redis degraded with readyz 200, and takes admin writes', async () => {
    expect(await redisHealth(app)).toEqual({ status: 200, redis: 'degraded' });
    const banned = await signedInject(app, TEST_ADMIN_SECRET, 'POST', '/ban', {
      ip_address: '198.51.100.10',
      duration_seconds: 60,
    });
    expect(banned.statusCode).toBeLessThan(300);
    expect((await app.inject({ method: 'GET', url: '/sub/x', remoteAddress: '198.51.100.10' })).statusCode).toBe(403);
  });
});
