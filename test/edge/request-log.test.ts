// DESIGN 13: request ids only in a safe form, and logs without API tokens, admin signatures or whole subscription tokens.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createUser } from '../../src/modules/users/users.service.js';
import { linkUrlJson, redactUrl } from '../../src/http/request-log.js';
import { signRequest } from '../../src/modules/admin/signature.js';
import {
  describeEachDatabase,
  openTestDatabase,
  startTestApp,
  signedInject,
  testConfig,
  type TestDatabase,
} from '../support/harness.js';
import { freshUserId } from '../support/factories.js';

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

describeEachDatabase('edge: logs and request ids', (kind) => {
  const SECRET = 'log-secret';
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
