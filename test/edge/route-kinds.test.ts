// docs/security.md (Request kinds): bans, budgets and statistics follow the matched route's kind, so no spelling of a URL escapes them.
import { beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { testDatabaseKinds, counterBackends, useTestApp, TEST_ADMIN_SECRET, type TestApp } from '../support/harness.js';
import { freshIp, subsApi } from '../support/factories.js';
import { expectError } from '../support/expect.js';
import { rawRequest } from '../support/raw-http.js';

async function subscription(t: TestApp): Promise<{ userToken: string; subToken: string }> {
  const { token, userToken } = await subsApi(t).create(['trojan://pw@edge.example.com:443']);
  return { userToken, subToken: token };
}

async function ban(t: TestApp, ip: string): Promise<void> {
  const res = await t.admin('POST', '/ban', { ip_address: ip, duration_seconds: 600 });
  expect(res.statusCode, res.body).toBe(201);
}

const expectBanned = (res: LightMyRequestResponse, what: string) => expectError(res, 403, 'ip_banned', what);

for (const kind of testDatabaseKinds()) {
  for (const backend of counterBackends()) {
    describe(`bans follow the matched route [${kind}, ${backend}]`, () => {
      const t = useTestApp(kind, { ADMIN_SECRET: TEST_ADMIN_SECRET }, { backend });
      let sub: { userToken: string; subToken: string };
      beforeAll(async () => {
        sub = await subscription(t);
      });

      it('a percent-encoded path reaches the route, so it is the route kind that decides', async () => {
        // The attack: /%73ub/<token> is routed to /sub/:token, while a URL-prefix check saw no "/sub/".
        expect((await t.call('GET', `/%73ub/${sub.subToken}`, { ip: freshIp() })).statusCode).toBe(200);
        expect((await t.call('GET', '/api/v1/%73ubs', { ip: freshIp(), token: sub.userToken })).statusCode).toBe(200);
      });

      it('refuses a banned address however the path is spelled, matched or not', async () => {
        const ip = freshIp();
        await ban(t, ip);
        const { subToken, userToken } = sub;
        for (const url of [
          `/%73ub/${subToken}`,
          `/api/v1/%73ub/${subToken}`,
          `/%63onnect/someone`,
          `//sub/${subToken}`,
          `/SUB/${subToken}`,
          `/sub//${subToken}`,
          '/no/such/path',
        ]) {
          expectBanned(await t.call('GET', url, { ip }), url);
        }
        expectBanned(await t.call('GET', '/api/v1/%73ubs', { ip, token: userToken }), '/api/v1/%73ubs');
        expectBanned(await t.call('GET', '/api/v1/%6De', { ip, token: userToken }), '/api/v1/%6De');
        expectBanned(await t.call('GET', '/api/v1/%70roviders/1', { ip, token: 'x' }), '/api/v1/%70roviders/1');
        // 405 (a known path, another method) is unmatched too, and so is a path the router cannot decode.
        expectBanned(await t.call('DELETE', `/sub/${subToken}`, { ip }), 'DELETE /sub');
        expectBanned(await t.call('GET', '/sub/%ZZ', { ip }), '/sub/%ZZ');
        expectError(await t.call('GET', '/sub/%ZZ', { ip: freshIp() }), 400, 'bad_request');
      });

      it('refuses a banned address sending an absolute-form target (raw HTTP)', async () => {
        await t.app.listen({ host: '127.0.0.1', port: 0 });
        const { port } = t.app.server.address() as { port: number };
        const get = (target: string) =>
          rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: sub.test\r\nConnection: close\r\n\r\n`);
        // The attack: an absolute-form target is routed like its path, while a URL-prefix check saw "http://".
        expect((await get(`http://sub.test/sub/${sub.subToken}`)).status).toBe(200);
        await ban(t, '127.0.0.1');
        try {
          for (const target of [
            `http://sub.test/sub/${sub.subToken}`,
            `http://sub.test/%73ub/${sub.subToken}`,
            `/sub/${sub.subToken}`,
          ]) {
            const res = await get(target);
            expectError(res, 403, 'ip_banned', target);
          }
        } finally {
          expect((await t.admin('DELETE', '/ban/127.0.0.1')).statusCode).toBe(200);
        }
      });

      it('still never bans health probes, docs or the admin API', async () => {
        const ip = freshIp();
        await ban(t, ip);
        for (const url of ['/healthz', '/readyz', '/openapi.json', '/docs']) {
          expect((await t.call('GET', url, { ip })).statusCode, url).toBeLessThan(400);
        }
      });
    });

    describe(`budgets follow the matched route [${kind}, ${backend}]`, () => {
      const t = useTestApp(
        kind,
        {
          ADMIN_SECRET: TEST_ADMIN_SECRET,
          RATE_LIMIT_PUBLIC_PER_MIN: '3',
          RATE_LIMIT_API_PER_MIN: '100',
          RATE_LIMIT_ANON_PER_MIN: '2',
          AUTO_BAN_VIOLATIONS: '0',
        },
        { backend },
      );

      it('charges every spelling of the public link, and the connect page, to one public budget', async () => {
        const ip = freshIp();
        for (const url of ['/sub/a', '/%73ub/b', '/connect/someone']) {
          expect((await t.call('GET', url, { ip })).statusCode, url).toBe(404);
        }
        for (const url of ['/sub/a', '/%73ub/b', '/api/v1/%73ub/c', '/%63onnect/someone']) {
          expectError(await t.call('GET', url, { ip }), 429, 'rate_limited');
        }
      });

      it('charges unmatched requests to the anonymous budget, so a mangled URL is no way around it', async () => {
        const ip = freshIp();
        expect((await t.call('GET', '/SUB/x', { ip })).headers['ratelimit-limit']).toBe('2');
        expectError(await t.call('GET', '//sub/x', { ip }), 404, 'not_found');
        for (const url of ['/no/such/path', '/SUB/x', '/api/v1/subs', '/%ZZ']) {
          expectError(await t.call('GET', url, { ip }), 429, 'rate_limited');
        }
      });
    });
  }
}

describe('unmatched requests can lead to an automatic ban', () => {
  const t = useTestApp('sqlite', {
    ADMIN_SECRET: TEST_ADMIN_SECRET,
    RATE_LIMIT_ANON_PER_MIN: '1',
    AUTO_BAN_VIOLATIONS: '2',
  });

  it('bans an address that keeps probing unknown paths', async () => {
    const ip = freshIp();
    expectError(await t.call('GET', '/wp-login.php', { ip }), 404, 'not_found');
    expectError(await t.call('GET', '/.env', { ip }), 429, 'rate_limited');
    expectError(await t.call('GET', '/.git/config', { ip }), 429, 'rate_limited');
    expectError(await t.call('GET', '/sub/x', { ip }), 403, 'ip_banned');
  });
});
