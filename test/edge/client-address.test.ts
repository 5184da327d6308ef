// docs/security.md (Who the client is): who the client is. IPv6 clients are grouped by /64, IPv4-mapped addresses are IPv4, and X-Forwarded-For is read strictly.
import { describe, expect, it } from 'vitest';
import { testDatabaseKinds, counterBackends, useTestApp, TEST_ADMIN_SECRET } from '../support/harness.js';
import { expectError } from '../support/expect.js';
import { randomBytes } from 'node:crypto';

/** Four hex digits without a leading zero, so the group is already in canonical form. */
const group = () => (0x1000 + (randomBytes(2).readUInt16BE() % 0xf000)).toString(16);
/** A fresh /64 under 2001:db8::/32 as its first four groups, so tests can pick addresses inside it. */
const fresh64 = () => `2001:db8:${group()}:${group()}`;
const fresh4 = () => `198.19.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

for (const kind of testDatabaseKinds()) {
  for (const backend of counterBackends()) {
    describe(`IPv6 /64 grouping [${kind}, ${backend}]`, () => {
      const t = useTestApp(
        kind,
        { ADMIN_SECRET: TEST_ADMIN_SECRET, RATE_LIMIT_PUBLIC_PER_MIN: '2', AUTO_BAN_VIOLATIONS: '2' },
        { backend },
      );

      it('charges every address of one /64 to one budget, so rotating addresses does not reset it', async () => {
        const net = fresh64();
        expect((await t.call('GET', '/sub/x', { ip: `${net}::1` })).statusCode).toBe(404);
        expect((await t.call('GET', '/sub/x', { ip: `${net}:ffff:ffff:ffff:fffe` })).statusCode).toBe(404);
        expectError(await t.call('GET', '/sub/x', { ip: `${net}:1234::99` }), 429, 'rate_limited');
        // Another /64 has its own budget.
        expect((await t.call('GET', '/sub/x', { ip: `${fresh64()}::1` })).statusCode).toBe(404);
      });

      it('bans the whole /64 automatically, stored as the /64 range', async () => {
        const net = fresh64();
        for (let i = 1; i <= 2; i++) await t.call('GET', '/sub/x', { ip: `${net}::${i}` });
        expectError(await t.call('GET', '/sub/x', { ip: `${net}::3` }), 429, 'rate_limited');
        expectError(await t.call('GET', '/sub/x', { ip: `${net}::4` }), 429, 'rate_limited');
        expectError(await t.call('GET', '/sub/x', { ip: `${net}:abcd::5` }), 403, 'ip_banned');
        const bans = (await t.admin('GET', '/bans')).json<{ entries: Array<{ ip_address: string }> }>().entries;
        expect(bans.map((b) => b.ip_address)).toContain(`${net}::/64`);
      });

      it('treats an IPv4-mapped client as its IPv4 address: one budget, one ban', async () => {
        const ip = fresh4();
        expect((await t.call('GET', '/sub/x', { ip })).statusCode).toBe(404);
        expect((await t.call('GET', '/sub/x', { ip: `::ffff:${ip}` })).statusCode).toBe(404);
        expectError(await t.call('GET', '/sub/x', { ip }), 429, 'rate_limited');
        expectError(await t.call('GET', '/sub/x', { ip: `::ffff:${ip}` }), 429, 'rate_limited');
        expectError(await t.call('GET', '/sub/x', { ip }), 403, 'ip_banned');
        const bans = (await t.admin('GET', '/bans')).json<{ entries: Array<{ ip_address: string }> }>().entries;
        expect(bans.map((b) => b.ip_address)).toContain(ip);
      });

      it('stores a manual ban of one IPv6 address as given, in canonical form, never widened', async () => {
        const net = fresh64();
        const res = await t.admin('POST', '/ban', { ip_address: `${net.toUpperCase()}:0:0:0:7`, duration_seconds: 60 });
        expect(res.json().ip_address).toBe(`${net}::7`);
        expectError(await t.call('GET', '/sub/x', { ip: `${net}::7` }), 403, 'ip_banned');
        expect((await t.call('GET', '/sub/x', { ip: `${net}::8` })).statusCode).toBe(404);
      });
    });
  }

  describe(`strict X-Forwarded-For [${kind}]`, () => {
    const proxy = '127.0.0.1';
    const t = useTestApp(kind, {
      ADMIN_SECRET: TEST_ADMIN_SECRET,
      TRUST_PROXY: '127.0.0.1,10.0.0.0/8',
      RATE_LIMIT_ANON_PER_MIN: '1',
      AUTO_BAN_VIOLATIONS: '1',
    });
    const via = (forwardedFor: string, url = '/sub/x', token?: string) =>
      t.call('GET', url, { ip: proxy, headers: { 'x-forwarded-for': forwardedFor }, ...(token ? { token } : {}) });

    it('answers 400 invalid_forwarded_for when the client entry is not an address, before authentication', async () => {
      const { token } = await t.newUser();
      for (const header of [
        'unknown',
        '',
        'garbage, 10.0.0.3',
        '198.51.100.1, <script>',
        '1.2.3.4.5',
        '198.51.100.1,',
      ]) {
        expectError(await via(header, '/api/v1/subs', token), 400, 'invalid_forwarded_for');
      }
      // Left of the client entry the header is client-supplied, and garbage there changes nothing.
      expect((await via('unknown, 198.51.100.20', '/api/v1/subs', token)).statusCode).toBe(200);
    });

    it('never lets a garbage entry pass the admin allowlist as the proxy (127.0.0.1 is allowed)', async () => {
      const res = await t.call('GET', '/api/v1/admin/bans', { ip: proxy, headers: { 'x-forwarded-for': 'unknown' } });
      expectError(res, 400, 'invalid_forwarded_for');
      expectError(
        await t.call('GET', '/api/v1/admin/bans', { ip: proxy, headers: { 'x-forwarded-for': '198.51.100.9' } }),
        403,
        'ip_not_allowed',
      );
    });

    it('charges nothing to the proxy: garbage entries never get the proxy banned for everyone behind it', async () => {
      for (let i = 0; i < 5; i++) expectError(await via('unknown', '/no/such/path'), 400, 'invalid_forwarded_for');
      expect((await t.admin('GET', `/ban/${proxy}`)).json().is_banned).toBe(false);
      expectError(await via('198.51.100.30', '/no/such/path'), 404, 'not_found');
    });

    it('drops a port from an entry and skips trusted entries', async () => {
      await t.admin('POST', '/ban', { ip_address: '203.0.113.5', duration_seconds: 60 });
      await t.admin('POST', '/ban', { ip_address: '2001:db8::1', duration_seconds: 60 });
      expectError(await via('203.0.113.5:4711'), 403, 'ip_banned');
      expectError(await via('[2001:db8::1]:4711, 10.0.0.2:80'), 403, 'ip_banned');
      // Every entry trusted: the left-most one is the client.
      await t.admin('POST', '/ban', { ip_address: '10.9.9.9', duration_seconds: 60 });
      expectError(await via('10.9.9.9, 10.0.0.1'), 403, 'ip_banned');
    });
  });
}
