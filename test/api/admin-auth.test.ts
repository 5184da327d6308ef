// The admin guard over HTTP (docs/admin-api.md): disabled without a secret, IP allowlist, signature checks and replay refusal.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import {
  connectedRedis,
  startTestApp,
  ADMIN_PREFIX,
  describeEachDatabase,
  openTestDatabase,
  signedInject,
  testConfig,
  useTestApp,
  type TestDatabase,
} from '../support/harness.js';
import { expectError } from '../support/expect.js';
import { signRequest } from '../../src/modules/admin/signature.js';

const SECRET = 'admin-auth-test-secret-of-at-least-32-characters';
const signGet = (timestamp: string, path: string) =>
  signRequest(SECRET, { timestamp, method: 'GET', pathWithQuery: `${ADMIN_PREFIX}${path}`, body: '' });

describeEachDatabase('admin API: disabled', (kind) => {
  const t = useTestApp(kind);

  it('answers 503 admin_disabled on every admin path when ADMIN_SECRET is unset, signed or not', async () => {
    expectError(await t.call('GET', `${ADMIN_PREFIX}/users/1`), 503, 'admin_disabled');
    expectError(await t.admin('POST', '/users', { user_id: 5 }, { secret: 'anything' }), 503, 'admin_disabled');
    expectError(await t.call('GET', `${ADMIN_PREFIX}/no-such-route`), 503, 'admin_disabled');
  });
});

describeEachDatabase('admin API: signature', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: SECRET });
  const probe = '/users/987654321';
  const signedGet = (path: string, timestamp: string, signature: string) =>
    t.app.inject({
      method: 'GET',
      url: `${ADMIN_PREFIX}${path}`,
      headers: { 'x-timestamp': timestamp, 'x-signature': signature },
    });

  it('accepts a correctly signed request', async () => {
    expectError(await t.admin('GET', probe), 404, 'user_not_found');
  });

  it('refuses missing headers with 401 missing_signature', async () => {
    expectError(await t.call('GET', `${ADMIN_PREFIX}${probe}`), 401, 'missing_signature');
    const timestampOnly = await t.call('GET', `${ADMIN_PREFIX}${probe}`, {
      headers: { 'x-timestamp': String(Date.now()) },
    });
    expectError(timestampOnly, 401, 'missing_signature');
    const signatureOnly = await t.call('GET', `${ADMIN_PREFIX}${probe}`, {
      headers: { 'x-signature': 'ab'.repeat(32) },
    });
    expectError(signatureOnly, 401, 'missing_signature');
  });

  it('refuses a signature made with another key', async () => {
    expectError(await t.admin('GET', probe, undefined, { secret: 'wrong-secret' }), 401, 'invalid_signature');
  });

  it('refuses malformed signatures', async () => {
    for (const signature of ['zz', 'ab'.repeat(31), 'ab'.repeat(33), 'g'.repeat(64)]) {
      const res = await t.admin('GET', probe, undefined, { headers: { 'x-signature': signature } });
      expectError(res, 401, 'invalid_signature');
    }
  });

  it('accepts the signature in upper-case hex (header matching is case-insensitive)', async () => {
    const timestamp = String(Date.now());
    const signature = signGet(timestamp, probe);
    const res = await t.admin('GET', probe, undefined, {
      timestamp,
      headers: { 'x-signature': signature.toUpperCase() },
    });
    expectError(res, 404, 'user_not_found');
  });

  it('treats the upper-case form of a used signature as a replay', async () => {
    const timestamp = String(Date.now());
    const signature = signGet(timestamp, probe);
    expectError(await t.admin('GET', probe, undefined, { timestamp }), 404, 'user_not_found');
    const upper = await t.admin('GET', probe, undefined, {
      timestamp,
      headers: { 'x-signature': signature.toUpperCase() },
    });
    expectError(upper, 401, 'replayed_request');
  });

  it('refuses stale and future timestamps beyond 60 s with 401 signature_expired', async () => {
    for (const offset of [-61_000, 61_000, -3_600_000]) {
      const res = await t.admin('GET', probe, undefined, { timestamp: String(Date.now() + offset) });
      expectError(res, 401, 'signature_expired');
    }
    expectError(await t.admin('GET', probe, undefined, { timestamp: 'yesterday' }), 401, 'signature_expired');
    expectError(
      await t.admin('GET', probe, undefined, { timestamp: String(Math.floor(Date.now() / 1000)) }),
      401,
      'signature_expired',
    );
  });

  it('accepts timestamps within the window on either side', async () => {
    expectError(
      await t.admin('GET', probe, undefined, { timestamp: String(Date.now() - 50_000) }),
      404,
      'user_not_found',
    );
    expectError(
      await t.admin('GET', probe, undefined, { timestamp: String(Date.now() + 50_000) }),
      404,
      'user_not_found',
    );
  });

  it('refuses a tampered body', async () => {
    const res = await t.admin('POST', '/users', { user_id: 7001 }, { sentBody: JSON.stringify({ user_id: 7002 }) });
    expectError(res, 401, 'invalid_signature');
    expectError(await t.admin('GET', '/users/7002'), 404, 'user_not_found');
  });

  it('refuses a body re-serialised differently (the raw bytes are signed)', async () => {
    const res = await t.admin('POST', '/users', { user_id: 7003 }, { sentBody: '{ "user_id": 7003 }' });
    expectError(res, 401, 'invalid_signature');
  });

  it('refuses a tampered query string and a tampered method', async () => {
    const timestamp = String(Date.now());
    const signature = signGet(timestamp, '/providers?a=1');
    const tamperedQuery = await signedGet('/providers?a=2', timestamp, signature);
    expectError(tamperedQuery, 401, 'invalid_signature');
    const droppedQuery = await signedGet('/providers', timestamp, signature);
    expectError(droppedQuery, 401, 'invalid_signature');
    const signedQuery = await signedGet('/providers?a=1', timestamp, signature);
    expect(signedQuery.statusCode, signedQuery.body).toBe(200);

    const otherMethod = await t.app.inject({
      method: 'DELETE',
      url: `${ADMIN_PREFIX}${probe}`,
      headers: {
        'x-timestamp': timestamp,
        'x-signature': signGet(timestamp, probe),
      },
    });
    expectError(otherMethod, 401, 'invalid_signature');
  });

  it('signs the path as sent, percent-encoding included', async () => {
    const encoded = await t.admin('GET', '/providers/by-name/no%2Dsuch');
    expectError(encoded, 404, 'provider_not_found');
    const timestamp = String(Date.now());
    const decodedSignature = signGet(timestamp, '/providers/by-name/no-such');
    const mismatch = await signedGet('/providers/by-name/no%2Dsuch', timestamp, decodedSignature);
    expectError(mismatch, 401, 'invalid_signature');
  });

  it('refuses a replayed request with 401 replayed_request', async () => {
    const timestamp = String(Date.now());
    const first = await t.admin('GET', probe, undefined, { timestamp });
    expectError(first, 404, 'user_not_found');
    expectError(await t.admin('GET', probe, undefined, { timestamp }), 401, 'replayed_request');
  });

  it('a refused signature is not remembered: the same request can then succeed', async () => {
    const timestamp = String(Date.now());
    await t.admin('GET', probe, undefined, { timestamp, headers: { 'x-signature': '0'.repeat(64) } });
    expectError(await t.admin('GET', probe, undefined, { timestamp }), 404, 'user_not_found');
  });

  it('parses JSON only after the signature: malformed JSON that is signed is 400 invalid_json', async () => {
    expectError(await t.admin('POST', '/users', '{"user_id": '), 400, 'invalid_json');
    expectError(await t.admin('POST', '/users', '{"user_id": ', { secret: 'nope' }), 401, 'invalid_signature');
  });

  it('validates bodies after the signature check', async () => {
    const res = await t.admin('POST', '/users', { user_id: 'seven' });
    const { details } = expectError(res, 400, 'validation_failed');
    expect(JSON.stringify(details)).toContain('user_id');
  });

  it('guards unknown admin paths too: 401 unsigned, 404 not_found or 405 once signed', async () => {
    expectError(await t.call('GET', `${ADMIN_PREFIX}/nope`), 401, 'missing_signature');
    expectError(await t.admin('GET', '/nope'), 404, 'not_found');
    const { details } = expectError(await t.admin('PUT', '/users/1', { is_active: true }), 405, 'method_not_allowed');
    expect(details?.['allowed']).toEqual(expect.arrayContaining(['GET', 'PATCH', 'DELETE']));
  });
});

describeEachDatabase('admin API: IP allowlist', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: SECRET, ADMIN_ALLOWED_IPS: '10.0.0.0/8,::1' });

  it('refuses callers outside ADMIN_ALLOWED_IPS with 403 ip_not_allowed, before the signature', async () => {
    expectError(await t.admin('GET', '/users/1'), 403, 'ip_not_allowed');
    expectError(await t.call('GET', `${ADMIN_PREFIX}/users/1`), 403, 'ip_not_allowed');
  });

  it('lets callers inside the range through', async () => {
    expectError(await t.admin('GET', '/users/1', undefined, { remoteAddress: '10.1.2.3' }), 404, 'user_not_found');
    expectError(await t.admin('GET', '/users/1', undefined, { remoteAddress: '11.1.2.3' }), 403, 'ip_not_allowed');
  });

  it('ignores X-Forwarded-For without TRUST_PROXY', async () => {
    const res = await t.admin('GET', '/users/1', undefined, { headers: { 'x-forwarded-for': '10.0.0.1' } });
    expectError(res, 403, 'ip_not_allowed');
  });
});

describeEachDatabase('admin API: IP allowlist behind a trusted proxy', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: SECRET, ADMIN_ALLOWED_IPS: '10.0.0.0/8', TRUST_PROXY: '127.0.0.1' });

  it('uses the right-most untrusted X-Forwarded-For address', async () => {
    const allowed = await t.admin('GET', '/users/1', undefined, { headers: { 'x-forwarded-for': '10.9.9.9' } });
    expectError(allowed, 404, 'user_not_found');
    const refused = await t.admin('GET', '/users/1', undefined, {
      headers: { 'x-forwarded-for': '10.9.9.9, 8.8.8.8' },
    });
    expectError(refused, 403, 'ip_not_allowed');
  });
});

const redisUrl = process.env['TEST_REDIS_URL'];

describe.skipIf(!redisUrl)('admin API: replay refusal shared through Redis', () => {
  let database: TestDatabase;
  const apps: FastifyInstance[] = [];
  const connections: Redis[] = [];

  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
    for (let i = 0; i < 2; i++) {
      const redis = await connectedRedis(redisUrl as string);
      connections.push(redis);
      apps.push((await startTestApp(testConfig({ ADMIN_SECRET: SECRET }), database.handle, { redis })).app);
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const redis of connections) redis.disconnect();
    await database?.close();
  });

  it('a request accepted by one instance is refused by the other', async () => {
    const [first, second] = apps as [FastifyInstance, FastifyInstance];
    // A unique path keeps this signature unique even when several suites share the Redis server.
    const path = `/users/${1 + (randomBytes(4).readUInt32BE() % 1_000_000_000)}`;
    const timestamp = String(Date.now());
    const accepted = await signedInject(first, SECRET, 'GET', path, undefined, { timestamp });
    expectError(accepted, 404, 'user_not_found');
    expectError(await signedInject(second, SECRET, 'GET', path, undefined, { timestamp }), 401, 'replayed_request');
    expectError(await signedInject(first, SECRET, 'GET', path, undefined, { timestamp }), 401, 'replayed_request');
  });
});
