// Two instances on one database refuse a replayed admin signature as one instance does: without Redis, with Redis
// configured but unreachable, and when Redis went away after the signature was accepted (docs/security.md).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createRedis, type Redis } from '../../src/redis.js';
import { signRequest } from '../../src/modules/admin/signature.js';
import {
  connectedRedis,
  openSharedHandles,
  openTestDatabase,
  redisUrl,
  signedInject,
  startTestApp,
  testConfig,
  testDatabaseKinds,
  uniqueRedisPrefix,
  type DatabaseKind,
} from '../support/harness.js';
import { expectError } from '../support/expect.js';

const SECRET = 'replay-secret-of-at-least-32-characters';
/** Nothing listens there: a Redis that is configured but never answers. */
const DEAD_REDIS = 'redis://127.0.0.1:1';

type RedisSetting = 'none' | 'unreachable' | 'live';

const redisFor = async (setting: RedisSetting): Promise<Redis | null> => {
  if (setting === 'none') return null;
  if (setting === 'live') return connectedRedis(redisUrl as string);
  return createRedis(DEAD_REDIS, { warn: () => undefined, info: () => undefined });
};

/** Two instances on one database, each with the Redis setting given (in order). */
function useInstances(kind: DatabaseKind, settings: [RedisSetting, RedisSetting]): FastifyInstance[] {
  const apps: FastifyInstance[] = [];
  const connections: Redis[] = [];
  let shared: Awaited<ReturnType<typeof openSharedHandles>>;
  beforeAll(async () => {
    shared = await openSharedHandles(kind);
    const prefix = uniqueRedisPrefix();
    for (const [i, handle] of shared.handles.entries()) {
      const redis = await redisFor(settings[i] as RedisSetting);
      if (redis) connections.push(redis);
      const config = testConfig({ ADMIN_SECRET: SECRET, REDIS_PREFIX: prefix });
      apps.push((await startTestApp(config, handle, { redis })).app);
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const redis of connections) redis.disconnect();
    await shared?.close();
  });
  return apps;
}

/** A path no other signature in any suite shares, so each test signs something new. */
const freshPath = () => `/users/${1 + (randomBytes(4).readUInt32BE() % 1_000_000_000)}`;

function replayTests(apps: FastifyInstance[]): void {
  it('refuses on the second instance a signature the first accepted, and on the first again', async () => {
    const [first, second] = apps as [FastifyInstance, FastifyInstance];
    const path = freshPath();
    const timestamp = String(Date.now());
    expectError(await signedInject(first, SECRET, 'GET', path, undefined, { timestamp }), 404, 'user_not_found');
    expectError(await signedInject(second, SECRET, 'GET', path, undefined, { timestamp }), 401, 'replayed_request');
    expectError(await signedInject(first, SECRET, 'GET', path, undefined, { timestamp }), 401, 'replayed_request');
  });

  it('accepts one signature exactly once when both instances receive it at the same time', async () => {
    const path = freshPath();
    const timestamp = String(Date.now());
    const answers = await Promise.all(
      [...apps, ...apps].map((app) => signedInject(app, SECRET, 'GET', path, undefined, { timestamp })),
    );
    const codes = answers.map((res) => res.json<{ error: string }>().error).sort();
    expect(codes).toEqual(['replayed_request', 'replayed_request', 'replayed_request', 'user_not_found']);
  });

  it('still accepts new signatures on both', async () => {
    for (const app of apps) {
      expectError(await signedInject(app, SECRET, 'GET', freshPath()), 404, 'user_not_found');
    }
  });
}

for (const kind of testDatabaseKinds()) {
  describe(`admin replay across instances without Redis [${kind}]`, () => {
    replayTests(useInstances(kind, ['none', 'none']));
  });

  describe(`admin replay across instances with Redis configured but unreachable [${kind}]`, () => {
    replayTests(useInstances(kind, ['unreachable', 'unreachable']));
  });

  describe.skipIf(!redisUrl)(`admin replay when one instance has lost Redis [${kind}]`, () => {
    // The first instance accepts while Redis answers; the second, whose Redis is gone, finds it in the database.
    replayTests(useInstances(kind, ['live', 'unreachable']));
  });
}

describe('admin replay rows', () => {
  it('are pruned once they leave the window, and hold only a hash of the signature', async () => {
    const database = await openTestDatabase('sqlite');
    const { app } = await startTestApp(testConfig({ ADMIN_SECRET: SECRET }), database.handle, { redis: null });
    try {
      const db = database.handle.db;
      await db
        .insertInto('admin_replays')
        .values({ signature_hash: 'old', expires_at: Date.now() - 1 })
        .execute();
      const timestamp = String(Date.now());
      const res = await signedInject(app, SECRET, 'GET', '/bans', undefined, { timestamp });
      expect(res.statusCode).toBe(200);
      const rows = await db.selectFrom('admin_replays').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.signature_hash).toMatch(/^[0-9a-f]{64}$/);
      const signature = signRequest(SECRET, {
        timestamp,
        method: 'GET',
        pathWithQuery: '/api/v1/admin/bans',
        body: '',
      });
      expect(JSON.stringify(rows)).not.toContain(signature);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
