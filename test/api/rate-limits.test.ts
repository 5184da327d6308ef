// Rate limits over HTTP (docs/security.md, What each control stops): budgets per IP and per credential, headers, 0 = off, whitelist, automatic bans.
import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { testDatabaseKinds, counterBackends, useTestApp, TEST_ADMIN_SECRET } from '../support/harness.js';
import { freshIp } from '../support/factories.js';
import { expectError } from '../support/expect.js';

function expectBudget(res: LightMyRequestResponse, limit: number, remaining: number): void {
  expect(res.headers['ratelimit-limit'], res.body).toBe(String(limit));
  expect(res.headers['ratelimit-remaining']).toBe(String(remaining));
  const reset = Number(res.headers['ratelimit-reset']);
  expect(reset).toBeGreaterThanOrEqual(1);
  expect(reset).toBeLessThanOrEqual(60);
}

function expectLimited(res: LightMyRequestResponse, limit: number): void {
  expectError(res, 429, 'rate_limited');
  expectBudget(res, limit, 0);
  expect(res.headers['retry-after']).toBe(res.headers['ratelimit-reset']);
}

const noHeaders = (res: LightMyRequestResponse) =>
  expect(Object.keys(res.headers).filter((h) => h.startsWith('ratelimit'))).toEqual([]);

for (const kind of testDatabaseKinds()) {
  for (const backend of counterBackends()) {
    describe(`rate limits [${kind}, ${backend}]`, () => {
      const t = useTestApp(
        kind,
        {
          ADMIN_SECRET: TEST_ADMIN_SECRET,
          RATE_LIMIT_PUBLIC_PER_MIN: '3',
          RATE_LIMIT_API_PER_MIN: '4',
          RATE_LIMIT_ANON_PER_MIN: '2',
          AUTO_BAN_VIOLATIONS: '0',
        },
        { backend },
      );

      it('limits the public link per client IP and counts down in the headers', async () => {
        const ip = freshIp();
        for (let i = 0; i < 3; i++) {
          const res = await t.call('GET', '/sub/no-such-token', { ip });
          expect(res.statusCode).toBe(404);
          expectBudget(res, 3, 2 - i);
        }
        expectLimited(await t.call('GET', '/sub/no-such-token', { ip }), 3);
        expectLimited(await t.call('GET', '/api/v1/sub/another', { ip }), 3);
        expectBudget(await t.call('GET', '/sub/no-such-token', { ip: freshIp() }), 3, 2);
      });

      it('limits authenticated calls per credential, not per IP', async () => {
        const [alice, bob] = [await t.newUser(), await t.newUser()];
        const [ipA, ipB] = [freshIp(), freshIp()];
        for (let i = 0; i < 4; i++) {
          const res = await t.call('GET', '/api/v1/subs', { ip: i % 2 ? ipA : ipB, token: alice.token });
          expect(res.statusCode).toBe(200);
          expectBudget(res, 4, 3 - i);
        }
        expectLimited(await t.call('GET', '/api/v1/me', { ip: freshIp(), token: alice.token }), 4);
        // Another credential from the same address has its own budget.
        const other = await t.call('GET', '/api/v1/subs', { ip: ipA, token: bob.token });
        expect(other.statusCode).toBe(200);
        expectBudget(other, 4, 3);
      });

      it('limits provider credentials the same way', async () => {
        const provider = await t.newProvider();
        for (let i = 0; i < 4; i++) {
          expectBudget(
            await t.call('GET', '/api/v1/providers/424242', { ip: freshIp(), token: provider.token }),
            4,
            3 - i,
          );
        }
        expectLimited(await t.call('GET', '/api/v1/providers/424242', { ip: freshIp(), token: provider.token }), 4);
      });

      it('counts requests without a token per IP, then refuses even a valid token from that IP', async () => {
        const ip = freshIp();
        const { token } = await t.newUser();
        for (let i = 0; i < 2; i++) {
          const res = await t.call('GET', '/api/v1/subs', { ip });
          expectError(res, 401, 'missing_token');
          expectBudget(res, 2, 1 - i);
        }
        expectLimited(await t.call('GET', '/api/v1/subs', { ip }), 2);
        expectLimited(await t.call('GET', '/api/v1/subs', { ip, token }), 2);
        expect((await t.call('GET', '/api/v1/subs', { ip: freshIp(), token })).statusCode).toBe(200);
      });

      it('counts failed authentication (401) per IP, and successful calls do not spend that budget', async () => {
        const ip = freshIp();
        const { token } = await t.newUser();
        expect((await t.call('GET', '/api/v1/subs', { ip, token })).statusCode).toBe(200);
        expect((await t.call('GET', '/api/v1/subs', { ip, token })).statusCode).toBe(200);
        const first = await t.call('GET', '/api/v1/subs', { ip, token: 'wrong-token' });
        expectError(first, 401, 'invalid_token');
        expectBudget(first, 2, 1);
        expectError(await t.call('GET', '/api/v1/providers/1', { ip, token: 'wrong-token' }), 401, 'invalid_token');
        expectLimited(await t.call('GET', '/api/v1/subs', { ip, token: 'wrong-token' }), 2);
        expectLimited(await t.call('GET', '/api/v1/subs', { ip, token }), 2);
      });

      it('never limits health probes, docs or the admin API', async () => {
        const ip = freshIp();
        for (let i = 0; i < 6; i++) {
          for (const url of ['/healthz', '/readyz', '/openapi.json', '/docs', '/api/v1/admin/bans']) {
            const res = await t.call('GET', url, { ip });
            expect(res.statusCode, url).not.toBe(429);
            noHeaders(res);
          }
          expect((await t.admin('GET', '/bans')).statusCode).toBe(200);
        }
      });

      it('never limits a whitelisted address', async () => {
        const ip = freshIp();
        await t.admin('POST', '/whitelist', { ip_address: ip });
        const { token } = await t.newUser();
        for (let i = 0; i < 6; i++) {
          for (const res of [
            await t.call('GET', '/sub/none', { ip }),
            await t.call('GET', '/api/v1/subs', { ip }),
            await t.call('GET', '/api/v1/subs', { ip, token: 'bad' }),
          ]) {
            expect(res.statusCode).not.toBe(429);
            noHeaders(res);
          }
        }
        // The per-credential budget is not spent from a whitelisted address either.
        for (let i = 0; i < 6; i++) expect((await t.call('GET', '/api/v1/subs', { ip, token })).statusCode).toBe(200);
        expectBudget(await t.call('GET', '/api/v1/subs', { ip: freshIp(), token }), 4, 3);
      });

      it('does not ban automatically when AUTO_BAN_VIOLATIONS is 0', async () => {
        const ip = freshIp();
        for (let i = 0; i < 3; i++) await t.call('GET', '/sub/x', { ip });
        for (let i = 0; i < 15; i++) expectLimited(await t.call('GET', '/sub/x', { ip }), 3);
      });
    });

    describe(`rate limits switched off [${kind}, ${backend}]`, () => {
      const t = useTestApp(
        kind,
        {
          ADMIN_SECRET: TEST_ADMIN_SECRET,
          RATE_LIMIT_PUBLIC_PER_MIN: '0',
          RATE_LIMIT_API_PER_MIN: '0',
          RATE_LIMIT_ANON_PER_MIN: '0',
        },
        { backend },
      );

      it('0 disables each limit: no 429 and no RateLimit headers', async () => {
        const ip = freshIp();
        const { token } = await t.newUser();
        for (let i = 0; i < 30; i++) {
          for (const res of [
            await t.call('GET', '/sub/none', { ip }),
            await t.call('GET', '/api/v1/subs', { ip }),
            await t.call('GET', '/api/v1/subs', { ip, token }),
          ]) {
            expect(res.statusCode).not.toBe(429);
            noHeaders(res);
          }
        }
      });
    });

    describe(`automatic bans [${kind}, ${backend}]`, () => {
      const t = useTestApp(
        kind,
        {
          ADMIN_SECRET: TEST_ADMIN_SECRET,
          RATE_LIMIT_PUBLIC_PER_MIN: '1',
          RATE_LIMIT_ANON_PER_MIN: '1',
          AUTO_BAN_VIOLATIONS: '3',
          DEFAULT_BAN_SECONDS: '120',
        },
        { backend },
      );

      it('bans an IP after AUTO_BAN_VIOLATIONS rejections: the last one is still 429, later requests 403', async () => {
        const ip = freshIp();
        expect((await t.call('GET', '/sub/x', { ip })).statusCode).toBe(404);
        for (let i = 0; i < 3; i++) expectLimited(await t.call('GET', '/sub/x', { ip }), 1);
        const banned = await t.call('GET', '/api/v1/subs', { ip });
        expectError(banned, 403, 'ip_banned');
        expect(Number(banned.headers['retry-after'])).toBeGreaterThan(110);
        const status = (await t.admin('GET', `/ban/${ip}`)).json();
        expect(status).toMatchObject({ ip_address: ip, is_banned: true });
        expect(status.remaining_seconds).toBeGreaterThan(110);
        expect(status.remaining_seconds).toBeLessThanOrEqual(120);
        // The listing tells the automatic ban from an admin's.
        const listed = (await t.admin('GET', '/bans')).json<{ entries: Array<{ ip_address: string }> }>();
        expect(listed.entries.find((entry) => entry.ip_address === ip)).toMatchObject({ reason: 'rate_limit' });
      });

      it('counts rejections of every budget from one IP together', async () => {
        const ip = freshIp();
        await t.call('GET', '/sub/x', { ip });
        expectLimited(await t.call('GET', '/sub/x', { ip }), 1);
        await t.call('GET', '/api/v1/subs', { ip });
        expectLimited(await t.call('GET', '/api/v1/subs', { ip }), 1);
        expectLimited(await t.call('GET', '/api/v1/me', { ip }), 1);
        expectError(await t.call('GET', '/sub/x', { ip }), 403, 'ip_banned');
      });

      it('never bans a whitelisted address automatically', async () => {
        const ip = freshIp();
        await t.admin('POST', '/whitelist', { ip_address: ip });
        for (let i = 0; i < 10; i++) expect((await t.call('GET', '/sub/x', { ip })).statusCode).toBe(404);
        expect((await t.admin('GET', `/ban/${ip}`)).json().is_banned).toBe(false);
      });
    });
  }
}
