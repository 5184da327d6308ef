// Ban enforcement over HTTP: 403 ip_banned on public, user and provider endpoints before authentication, whitelist precedence, expiry, proxies.
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, useTestApp, TEST_ADMIN_SECRET, type TestApp } from '../support/harness.js';
import { freshIp, subsApi } from '../support/factories.js';
import { expectError } from '../support/expect.js';
import { withClockAhead } from '../support/time.js';

async function publicToken(t: TestApp): Promise<{ userToken: string; subToken: string }> {
  const { token, userToken } = await subsApi(t).create(['trojan://pw@ban.example.com:443']);
  return { userToken, subToken: token };
}

async function ban(t: TestApp, ip: string, seconds = 600): Promise<string> {
  const res = await t.admin('POST', '/ban', { ip_address: ip, duration_seconds: seconds });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ banned_until: string }>().banned_until;
}

function expectBanned(res: Awaited<ReturnType<TestApp['call']>>, bannedUntil?: string, maxRetry = 600): void {
  const { details } = expectError(res, 403, 'ip_banned');
  if (bannedUntil) expect(details).toEqual({ banned_until: bannedUntil });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxRetry);
}

describeEachDatabase('ban enforcement', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: TEST_ADMIN_SECRET });
  let sub: { userToken: string; subToken: string };
  let providerToken: string;
  beforeAll(async () => {
    sub = await publicToken(t);
    providerToken = (await t.newProvider()).token;
  });

  it('answers 403 ip_banned with banned_until and Retry-After on the public link, only for the banned address', async () => {
    const ip = freshIp();
    expect((await t.call('GET', `/sub/${sub.subToken}`, { ip })).statusCode).toBe(200);
    const until = await ban(t, ip, 300);
    for (const url of [
      `/sub/${sub.subToken}`,
      `/api/v1/sub/${sub.subToken}?format=plain`,
      '/sub/unknown-token',
      '/connect/someone',
    ]) {
      expectBanned(await t.call('GET', url, { ip }), until, 300);
    }
    expect((await t.call('GET', `/sub/${sub.subToken}`, { ip: freshIp() })).statusCode).toBe(200);
  });

  it('refuses user endpoints before authentication: valid, invalid or missing token alike', async () => {
    const ip = freshIp();
    const until = await ban(t, ip);
    expectBanned(await t.call('GET', '/api/v1/subs', { ip, token: sub.userToken }), until);
    expectBanned(await t.call('GET', '/api/v1/subs', { ip, token: 'not-a-token' }), until);
    expectBanned(await t.call('GET', '/api/v1/subs', { ip }), until);
    expectBanned(await t.call('GET', '/api/v1/me', { ip, token: sub.userToken }), until);
    expectBanned(await t.call('POST', '/api/v1/subs', { ip, token: sub.userToken, body: { name: 'x' } }), until);
    expect((await t.call('GET', '/api/v1/subs', { token: sub.userToken, ip: freshIp() })).statusCode).toBe(200);
  });

  it('refuses provider endpoints before authentication', async () => {
    const ip = freshIp();
    const until = await ban(t, ip);
    expectBanned(await t.call('GET', '/api/v1/providers/12345', { ip, token: providerToken }), until);
    expectBanned(await t.call('GET', '/api/v1/providers/12345/subs', { ip, token: providerToken }), until);
    expectBanned(await t.call('POST', '/api/v1/providers/12345', { ip }), until);
    expectError(
      await t.call('GET', '/api/v1/providers/12345', { ip: freshIp(), token: providerToken }),
      404,
      'connection_not_found',
    );
  });

  it('never bans health probes, docs or the admin API', async () => {
    const ip = freshIp();
    await ban(t, ip);
    expect((await t.call('GET', '/healthz', { ip })).statusCode).toBe(200);
    expect((await t.call('GET', '/readyz', { ip })).statusCode).toBe(200);
    expect((await t.call('GET', '/openapi.json', { ip })).statusCode).toBe(200);
    expect((await t.call('GET', '/docs', { ip })).statusCode).toBeLessThan(400);
    // The admin allowlist (127.0.0.1) decides there: a banned allowlisted admin still gets in.
    await ban(t, '127.0.0.1', 60);
    expect((await t.admin('GET', '/bans')).statusCode).toBe(200);
    expectBanned(await t.call('GET', '/sub/x'));
    expect((await t.admin('DELETE', '/ban/127.0.0.1')).json().was_banned).toBe(true);
    expectError(await t.call('GET', '/sub/x'), 404, 'subscription_not_found');
  });

  it('bans every address of a CIDR range, IPv4, IPv6 and IPv4-mapped clients', async () => {
    await ban(t, '203.0.113.0/28');
    expectBanned(await t.call('GET', '/sub/x', { ip: '203.0.113.1' }));
    expectBanned(await t.call('GET', '/sub/x', { ip: '203.0.113.15' }));
    expectBanned(await t.call('GET', '/sub/x', { ip: '::ffff:203.0.113.9' }));
    expectError(await t.call('GET', '/sub/x', { ip: '203.0.113.16' }), 404, 'subscription_not_found');
    await ban(t, '2001:db8:77::/64');
    expectBanned(await t.call('GET', '/api/v1/subs', { ip: '2001:db8:77::abcd', token: sub.userToken }));
    expectBanned(await t.call('GET', '/api/v1/subs', { ip: '2001:0db8:0077:0000:ffff::1', token: sub.userToken }));
    expect((await t.call('GET', '/api/v1/subs', { ip: '2001:db8:78::1', token: sub.userToken })).statusCode).toBe(200);
    await t.admin('DELETE', '/ban/203.0.113.0%2F28');
    expectError(await t.call('GET', '/sub/x', { ip: '203.0.113.1' }), 404, 'subscription_not_found');
  });

  it('lets a whitelisted address through a ban, which GET /ban still reports', async () => {
    const ip = '192.0.2.201';
    await ban(t, ip);
    expectBanned(await t.call('GET', `/sub/${sub.subToken}`, { ip }));
    expect(
      (await t.admin('POST', '/whitelist', { ip_address: '192.0.2.192/27', description: 'partner' })).statusCode,
    ).toBe(201);
    expect((await t.call('GET', `/sub/${sub.subToken}`, { ip })).statusCode).toBe(200);
    expect((await t.call('GET', '/api/v1/subs', { ip, token: sub.userToken })).statusCode).toBe(200);
    expect((await t.admin('GET', `/ban/${ip}`)).json()).toMatchObject({ ip_address: ip, is_banned: true });
    expect((await t.admin('DELETE', '/whitelist/192.0.2.192%2F27')).json().was_whitelisted).toBe(true);
    expectBanned(await t.call('GET', `/sub/${sub.subToken}`, { ip }));
  });

  it('stops applying a ban when it expires, without any clean-up', async () => {
    const ip = freshIp();
    await ban(t, ip, 1);
    expectBanned(await t.call('GET', `/sub/${sub.subToken}`, { ip }), undefined, 1);
    await withClockAhead(1100, async () => {
      expect((await t.call('GET', `/sub/${sub.subToken}`, { ip })).statusCode).toBe(200);
      expect((await t.admin('GET', `/ban/${ip}`)).json().is_banned).toBe(false);
    });
  });

  it('lifts a ban at once on unban', async () => {
    const ip = freshIp();
    await ban(t, ip);
    expectBanned(await t.call('GET', `/sub/${sub.subToken}`, { ip }));
    await t.admin('DELETE', `/ban/${ip}`);
    expect((await t.call('GET', `/sub/${sub.subToken}`, { ip })).statusCode).toBe(200);
  });
});

describeEachDatabase('ban enforcement behind a trusted proxy', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: TEST_ADMIN_SECRET, TRUST_PROXY: '10.0.0.0/8' });

  it('bans the right-most untrusted X-Forwarded-For address, never a forged one', async () => {
    const banned = freshIp();
    await ban(t, banned);
    const via = (forwardedFor: string, ip = '10.0.0.1') =>
      t.call('GET', '/sub/x', { ip, headers: { 'x-forwarded-for': forwardedFor } });
    expectBanned(await via(banned));
    expectBanned(await via(`198.51.100.7, ${banned}`));
    expectBanned(await via(`${banned}, 10.1.1.1`));
    // Left of the client's own address the header is client-supplied: a ban there is not the caller's.
    expectError(await via(`${banned}, 198.51.100.7`), 404, 'subscription_not_found');
    // From an untrusted socket X-Forwarded-For is ignored.
    expectError(await via(banned, '192.0.2.99'), 404, 'subscription_not_found');
    // The proxy itself is not the client.
    await ban(t, '10.0.0.1');
    expectError(await via('198.51.100.8'), 404, 'subscription_not_found');
  });
});
