// docs/security.md (Request ids, Logs): request ids only in a safe form, and logs without API tokens, admin signatures or whole subscription tokens.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../src/context.js';
import { createUser } from '../../src/modules/users/users.service.js';
import { linkUrlJson, milliseconds, redactUrl } from '../../src/http/request-log.js';
import { signRequest } from '../../src/modules/admin/signature.js';
import {
  describeEachDatabase,
  openTestDatabase,
  startTestApp,
  signedInject,
  testConfig,
  type TestDatabase,
} from '../support/harness.js';
import { freshUserId, TEST_BASE_URL } from '../support/factories.js';

describe('redactUrl', () => {
  const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
  it.each([
    [`/sub/${token}`, '/sub/AbCdEf…'],
    [`/api/v1/sub/${token}?format=plain`, '/api/v1/sub/AbCdEf…?format=plain'],
    [`/api/v1/subs/${token}/sources`, '/api/v1/subs/AbCdEf…/sources'],
    [`/api/v1/providers/42/subs/${token}/config`, '/api/v1/providers/42/subs/AbCdEf…/config'],
    [`/%73ub/${token}`, '/%73ub/AbCdEf…'],
    [`/SUB/${token}`, '/SUB/AbCdEf…'],
    [`http://sub.test/sub/${token}`, 'http://sub.test/sub/AbCdEf…'],
    ['/connect/acme?user_id=1&invite=secret.123', '/connect/acme?user_id=1&invite=…'],
    ['/api/v1/subs', '/api/v1/subs'],
    ['/sub/abc', '/sub/abc'],
  ])('%s -> %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});

describe('linkUrlJson', () => {
  const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
  it.each([
    ['/sub', token, ''],
    ['/sub', token, '/'],
    ['/api/v1/sub', token, '/clash-meta'],
    ['/sub', token, '?format=plain'],
    ['/sub', token, '/sing-box/?format=v2ray'],
    ['/sub', 'abcdef', '/clash'],
    ['/sub', 'abcdefg', ''],
    ['/sub', 'sub', '/clash-meta'],
    ['/sub', 'SUBS', '/clash-meta'],
  ])('%s/%s%s reads as redactUrl has it, in ASCII', (mount, linkToken, rest) => {
    const url = `${mount}/${linkToken}${rest}`;
    const json = linkUrlJson(url, mount, linkToken);
    expect(JSON.parse(json)).toBe(redactUrl(url));
    expect(json).toMatch(/^"[\x20-\x7e]+"$/);
  });
});

describe('milliseconds (the responseTime of a link line)', () => {
  it.each([
    [0.4567, '0.457'],
    [0.0004, '0.000'],
    [0.0996, '0.100'],
    [12, '12.000'],
    [1234.5678, '1234.568'],
    [0.0104, '0.010'],
  ])('%s -> %s, a JSON number', (value, written) => {
    expect(milliseconds(value)).toBe(written);
    expect(JSON.parse(written)).toBeCloseTo(value, 3);
  });
});

describeEachDatabase('edge: logs and request ids', (kind) => {
  const SECRET = 'log-secret-of-at-least-32-characters';
  let database: TestDatabase;
  let app: FastifyInstance;
  let lines: string[];
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    lines = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    ({ app } = await startTestApp(
      testConfig({ ADMIN_SECRET: SECRET }),
      database.handle,
      {},
      { logger: { level: 'info', stream } },
    ));
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('keeps a safe X-Request-Id and replaces anything else', async () => {
    const id = async (value: string) =>
      (await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': value } })).headers[
        'x-request-id'
      ];
    expect(await id('req-1.2:abc_DEF')).toBe('req-1.2:abc_DEF');
    expect(await id('a'.repeat(128))).toBe('a'.repeat(128));
    for (const bad of ['a'.repeat(129), 'bad id', 'x\r\nSet-Cookie: a=b'.replace(/[\r\n]/g, ''), '<script>', 'ü', '']) {
      const given = await id(bad);
      expect(given).not.toBe(bad);
      expect(given).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('never logs an API token, an admin signature or a whole subscription token', async () => {
    const user = await createUser(database.handle.db, freshUserId());
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/subs',
      headers: { 'api-token': user.api_token },
      payload: { name: 'logged', sources: ['trojan://pw@log.example.com:443'] },
    });
    const token = created.json<{ token: string }>().token;
    const headers = { 'api-token': user.api_token };
    for (const url of [
      `/sub/${token}`,
      `/api/v1/sub/${token}?format=plain`,
      `/%73ub/${token}`,
      `/SUB/${token}`,
      `/api/v1/subs/${token}`,
      `/api/v1/providers/${user.user_id}/subs/${token}`,
    ]) {
      await app.inject({ method: 'GET', url, headers });
    }
    const timestamp = String(Date.now());
    expect((await signedInject(app, SECRET, 'GET', '/bans', undefined, { timestamp })).statusCode).toBe(200);
    const signature = signRequest(SECRET, { timestamp, method: 'GET', pathWithQuery: '/api/v1/admin/bans', body: '' });

    const log = lines.join('');
    expect(log).toContain(`/sub/${token.slice(0, 6)}…`);
    expect(log).toContain(`/api/v1/subs/${token.slice(0, 6)}…`);
    expect(log).toContain(`/subs/${token.slice(0, 6)}…`);
    expect(log).toContain('/api/v1/admin/bans');
    expect(log).not.toContain(token);
    expect(log).not.toContain(user.api_token);
    expect(log).not.toContain(signature);
  });

  it('never logs the token or the cookie POST /api/v1/me/refresh-token answers with', async () => {
    const user = await createUser(database.handle.db, freshUserId());
    const signedIn = await app.inject({ method: 'POST', url: '/api/v1/session', payload: { token: user.api_token } });
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
    const refresh = (headers: Record<string, string>) =>
      app.inject({ method: 'POST', url: '/api/v1/me/refresh-token', headers });
    const byCookie = await refresh({ cookie, origin: TEST_BASE_URL });
    expect(byCookie.statusCode, byCookie.body).toBe(200);
    const fresh = String(byCookie.headers['set-cookie']).split(';')[0]!;
    const first = byCookie.json<{ api_token: string }>().api_token;
    const byToken = await refresh({ 'api-token': first });
    expect(byToken.statusCode, byToken.body).toBe(200);

    const log = lines.join('');
    expect(log).toContain('/api/v1/me/refresh-token');
    for (const secret of [user.api_token, first, byToken.json<{ api_token: string }>().api_token]) {
      expect(log).not.toContain(secret);
    }
    for (const value of [cookie, fresh]) expect(log).not.toContain(value.split('=')[1]);
  });

  it('writes one line per request, when it is answered, with the status and the time taken', async () => {
    lines.length = 0;
    const answered = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'one-line-1' } });
    const written = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const mine = written.filter((entry) => entry['reqId'] === 'one-line-1');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: '/healthz' },
      res: { statusCode: answered.statusCode },
    });
    expect(mine[0]?.['responseTime']).toEqual(expect.any(Number));
  });
});

/** GET over a real connection from 127.0.0.1, so the link lane (which inject() never reaches) can answer. */
function getOverHttp(base: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${base}${path}`, { headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end();
  });
}

describeEachDatabase('edge: the client address in access lines behind TRUST_PROXY', (kind) => {
  const SECRET = 'log-secret-of-at-least-32-characters';
  const PROXY = '127.0.0.1';
  let database: TestDatabase;
  let app: FastifyInstance;
  let context: AppContext;
  let base: string;
  const lines: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) {
          lines.push(JSON.parse(line) as Record<string, unknown>);
        }
        callback();
      },
    });
    ({ app, context } = await startTestApp(
      testConfig({ ADMIN_SECRET: SECRET, TRUST_PROXY: `${PROXY},10.0.0.0/8`, RATE_LIMIT_PUBLIC_PER_MIN: '2' }),
      database.handle,
      {},
      { logger: { level: 'info', stream } },
    ));
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  let sequence = 0;
  /** The access line of one request, found by its request id. */
  const lineOf = (id: string) => {
    const mine = lines.filter((line) => line['reqId'] === id && line['msg'] === 'request completed');
    expect(mine, id).toHaveLength(1);
    return mine[0] as { req: Record<string, unknown>; res: { statusCode: number } };
  };
  const viaProxy = async (url: string, forwardedFor: string, headers: Record<string, string> = {}) => {
    const id = `xff-${++sequence}`;
    const res = await app.inject({
      method: 'GET',
      url,
      remoteAddress: PROXY,
      headers: { 'x-forwarded-for': forwardedFor, 'x-request-id': id, ...headers },
    });
    return { status: res.statusCode, line: lineOf(id) };
  };

  it('logs the forwarded client on routes, 404s, router errors and refused requests, never the proxy', async () => {
    const cases: Array<[string, string, number, string]> = [
      ['/healthz', '203.0.113.10', 200, '203.0.113.10'],
      ['/no/such/path', '203.0.113.11, 10.0.0.7', 404, '203.0.113.11'],
      ['/api/v1/me', '[2001:db8::11]:4711', 401, '2001:db8::11'],
      ['/sub/%E0%A4%A', '203.0.113.12', 400, '203.0.113.12'],
      ['/api/v1/admin/bans', '203.0.113.13', 403, '203.0.113.13'],
    ];
    for (const [url, forwardedFor, status, client] of cases) {
      const { status: answered, line } = await viaProxy(url, forwardedFor);
      expect(answered, url).toBe(status);
      expect(line.req['remoteAddress'], url).toBe(client);
    }
  });

  it('logs the client a rate limit refuses, and a ban refuses', async () => {
    const client = '203.0.113.20';
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const { status, line } = await viaProxy('/sub/unknown-token', client);
      statuses.push(status);
      expect(line.req['remoteAddress']).toBe(client);
    }
    expect(statuses).toEqual([404, 404, 429]);
    const banned = '203.0.113.21';
    expect((await signedInject(app, SECRET, 'POST', '/ban', { ip_address: banned })).statusCode).toBe(201);
    const { status, line } = await viaProxy('/healthz', `${banned}, 10.1.2.3`);
    expect([status, line.req['remoteAddress']]).toEqual([200, banned]);
    const refused = await viaProxy('/sub/unknown-token', banned);
    expect([refused.status, refused.line.req['remoteAddress']]).toEqual([403, banned]);
  });

  it('never names the proxy as the client of a request refused for a garbage X-Forwarded-For', async () => {
    const { status, line } = await viaProxy('/healthz', 'unknown, 10.0.0.9');
    expect(status).toBe(400);
    expect(line.req['remoteAddress']).toBeUndefined();
    expect(line.req['forwardedBy']).toBe(PROXY);
  });

  it('logs the forwarded client of a link the lane answers', async () => {
    const user = await createUser(database.handle.db, freshUserId());
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/subs',
      headers: { 'api-token': user.api_token },
      payload: { name: 'lane-logged', sources: ['trojan://pw@lane-log.example.com:443'] },
    });
    const token = created.json<{ token: string }>().token;
    expect((await app.inject({ method: 'GET', url: `/sub/${token}`, remoteAddress: '198.51.100.30' })).statusCode).toBe(
      200,
    );
    const answeredByLane = context.metrics.laneAnswers;
    const status = await getOverHttp(base, `/sub/${token}`, {
      'x-forwarded-for': '203.0.113.40, 10.0.0.1',
      'x-request-id': 'lane-xff',
    });
    expect(status).toBe(200);
    expect(context.metrics.laneAnswers).toBe(answeredByLane + 1);
    expect(lineOf('lane-xff').req['remoteAddress']).toBe('203.0.113.40');
  });
});
