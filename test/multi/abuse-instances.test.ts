// Two instances on one database: bans and the whitelist reach the other instance within a second (the change log, relayed by Redis or polled without it), and Redis counters are shared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from '../../src/redis.js';
import {
  openSharedHandles,
  startTestApp,
  testConfig,
  testDatabaseKinds,
  type DatabaseKind,
  clientFor,
  connectedRedis,
  redisUrl,
  uniqueRedisPrefix,
  TEST_ADMIN_SECRET,
  type TestClient,
} from '../support/harness.js';
import { freshIp } from '../support/factories.js';
import { expectError } from '../support/expect.js';
import { waitFor } from '../support/time.js';

function useTwoInstances(kind: DatabaseKind, withRedis: boolean, env: Record<string, string>): TestClient[] {
  const clients: TestClient[] = [];
  const connections: Redis[] = [];
  let shared: Awaited<ReturnType<typeof openSharedHandles>>;
  beforeAll(async () => {
    shared = await openSharedHandles(kind);
    const prefix = uniqueRedisPrefix();
    for (const handle of shared.handles) {
      const redis = withRedis ? await connectedRedis(redisUrl as string) : null;
      if (redis) connections.push(redis);
      const config = testConfig({ ADMIN_SECRET: TEST_ADMIN_SECRET, REDIS_PREFIX: prefix, ...env });
      clients.push(clientFor((await startTestApp(config, handle, { redis })).app, TEST_ADMIN_SECRET));
    }
  });
  afterAll(async () => {
    for (const client of clients) await client.app.close();
    for (const redis of connections) redis.disconnect();
    await shared?.close();
  });
  return clients;
}

const statusFrom = async (client: TestClient, ip: string) => (await client.call('GET', '/sub/x', { ip })).statusCode;

function propagationTests(clients: TestClient[]): void {
  it('enforces a ban made through one instance on the other within a second, and lifts it the same way', async () => {
    const [first, second] = clients as [TestClient, TestClient];
    const ip = freshIp();
    expect(await statusFrom(second, ip)).toBe(404);
    expect((await first.admin('POST', '/ban', { ip_address: ip, duration_seconds: 600 })).statusCode).toBe(201);
    expect(await statusFrom(first, ip)).toBe(403);
    expect(await waitFor(1000, async () => (await statusFrom(second, ip)) === 403)).toBe(true);
    expect((await second.admin('DELETE', `/ban/${ip}`)).json().was_banned).toBe(true);
    expect(await statusFrom(second, ip)).toBe(404);
    expect(await waitFor(1000, async () => (await statusFrom(first, ip)) === 404)).toBe(true);
  });

  it('applies a range ban and a whitelist entry made elsewhere within a second', async () => {
    const [first, second] = clients as [TestClient, TestClient];
    await first.admin('POST', '/ban', { ip_address: '192.0.2.128/25', duration_seconds: 600 });
    expect(await waitFor(1000, async () => (await statusFrom(second, '192.0.2.130')) === 403)).toBe(true);
    await second.admin('POST', '/whitelist', { ip_address: '192.0.2.130' });
    expect(await waitFor(1000, async () => (await statusFrom(first, '192.0.2.130')) === 404)).toBe(true);
    expect(await statusFrom(first, '192.0.2.131')).toBe(403);
  });
}

for (const kind of testDatabaseKinds()) {
  describe.skipIf(!redisUrl)(`bans across instances through Redis [${kind}]`, () => {
    propagationTests(useTwoInstances(kind, true, {}));
  });

  describe.skipIf(!redisUrl)(`rate limits across instances through Redis [${kind}]`, () => {
    const clients = useTwoInstances(kind, true, {
      RATE_LIMIT_PUBLIC_PER_MIN: '4',
      AUTO_BAN_VIOLATIONS: '2',
      DEFAULT_BAN_SECONDS: '60',
    });

    it('counts one budget across both instances, and an automatic ban applies on both', async () => {
      const [first, second] = clients as [TestClient, TestClient];
      const ip = freshIp();
      const remaining: string[] = [];
      for (const client of [first, second, first, second]) {
        const res = await client.call('GET', '/sub/x', { ip });
        expect(res.statusCode).toBe(404);
        remaining.push(res.headers['ratelimit-remaining'] as string);
      }
      expect(remaining).toEqual(['3', '2', '1', '0']);
      expectError(await first.call('GET', '/sub/x', { ip }), 429, 'rate_limited');
      expectError(await second.call('GET', '/sub/x', { ip }), 429, 'rate_limited');
      // Two rejections, one per instance, reach AUTO_BAN_VIOLATIONS=2.
      expectError(await second.call('GET', '/sub/x', { ip }), 403, 'ip_banned');
      expect(await waitFor(1000, async () => (await statusFrom(first, ip)) === 403)).toBe(true);
    });
  });

  describe(`bans across instances without Redis (polling) [${kind}]`, () => {
    propagationTests(useTwoInstances(kind, false, {}));
  });
}
