// HTTP contract of user self-service /api/v1/me (docs/api.md: Your account, States).
import { expect, it } from 'vitest';
import { describeEachDatabase, useTestApp, type TestApp } from '../support/harness.js';
import { approvedPair, CONNECTION_DATES, connectionStatus, decide, ME, requestAccess } from '../support/factories.js';
import { expectError, expectStatus } from '../support/expect.js';
import { withClockAhead } from '../support/time.js';

const CONNECTION_KEYS = ['created_at', 'is_authorized', 'provider_name', 'provider_url', 'status', 'status_changed_at'];

async function pendingPair(t: TestApp, url?: string) {
  const user = await t.newUser();
  const provider = await t.newProvider(url === undefined ? {} : { url });
  await requestAccess(t, provider, user.userId);
  return { user, provider };
}

describeEachDatabase('user self-service', (kind) => {
  const t = useTestApp(kind, { MAX_PROVIDERS_PER_USER: '2' });

  it('GET /me answers {user_id, is_active}', async () => {
    const user = await t.newUser();
    const response = expectStatus(await t.call('GET', ME, { token: user.token }), 200);
    expect(response.json()).toEqual({ user_id: user.userId, is_active: true });
  });

  it('GET /me/providers lists pending and approved connections only', async () => {
    const user = await t.newUser();
    expect(expectStatus(await t.call('GET', `${ME}/providers`, { token: user.token }), 200).json()).toEqual({
      connections: [],
    });
    const [pending, approved, revoked] = [await t.newProvider(), await t.newProvider(), await t.newProvider()];
    for (const provider of [pending, approved, revoked]) await requestAccess(t, provider, user.userId);
    expectStatus(await decide(t, user.token, approved.name, 'approve'), 200);
    expectStatus(await decide(t, user.token, revoked.name, 'revoke'), 204);
    const { connections } = expectStatus(await t.call('GET', `${ME}/providers`, { token: user.token }), 200).json<{
      connections: Array<Record<string, unknown>>;
    }>();
    expect(connections).toHaveLength(2);
    for (const c of connections) expect(Object.keys(c).sort()).toEqual(CONNECTION_KEYS);
    expect(connections).toEqual(
      expect.arrayContaining([
        {
          provider_name: pending.name,
          provider_url: `https://${pending.name}.example.com`,
          is_authorized: false,
          status: 'pending',
          ...CONNECTION_DATES,
        },
        {
          provider_name: approved.name,
          provider_url: `https://${approved.name}.example.com`,
          is_authorized: true,
          status: 'approved',
          ...CONNECTION_DATES,
        },
      ]),
    );
  });

  it('GET /me/providers/{name} answers any status, revoked included; provider_url null when the provider has none', async () => {
    const { user, provider } = await pendingPair(t, '');
    const url = `${ME}/providers/${provider.name}`;
    expect(expectStatus(await t.call('GET', url, { token: user.token }), 200).json()).toEqual({
      provider_name: provider.name,
      provider_url: null,
      is_authorized: false,
      status: 'pending',
      ...CONNECTION_DATES,
    });
    expectStatus(await decide(t, user.token, provider.name, 'revoke'), 204);
    expect(expectStatus(await t.call('GET', url, { token: user.token }), 200).json()).toMatchObject({
      status: 'revoked',
    });
  });

  it('dates: created_at is when the provider first asked, status_changed_at moves with each status; the provider sees both', async () => {
    const user = await t.newUser();
    const provider = await t.newProvider();
    const before = new Date().toISOString();
    await requestAccess(t, provider, user.userId);
    const after = new Date().toISOString();
    const listed = async () =>
      expectStatus(await t.call('GET', `${ME}/providers`, { token: user.token }), 200).json<{
        connections: Array<{ created_at: string; status_changed_at: string }>;
      }>().connections[0]!;
    const asked = await listed();
    expect(asked.created_at >= before && asked.created_at <= after).toBe(true);
    expect(asked.status_changed_at).toBe(asked.created_at);

    // Approved "a minute later": the approval's time, in the answer, the list, the single view and the provider's view.
    const approved = await withClockAhead(60_000, async () =>
      expectStatus(await decide(t, user.token, provider.name, 'approve'), 200).json<typeof asked>(),
    );
    expect(approved.created_at).toBe(asked.created_at);
    expect(Date.parse(approved.status_changed_at) - Date.parse(asked.created_at)).toBeGreaterThanOrEqual(60_000);
    expect(await listed()).toMatchObject(approved);
    const one = await t.call('GET', `${ME}/providers/${provider.name}`, { token: user.token });
    expect(expectStatus(one, 200).json()).toMatchObject(approved);
    const seen = await t.call('GET', `/api/v1/providers/${user.userId}`, { token: provider.token });
    expect(expectStatus(seen, 200).json()).toEqual({
      user_id: user.userId,
      status: 'approved',
      created_at: approved.created_at,
      status_changed_at: approved.status_changed_at,
    });

    // Revoked, then asked for again later: the first request's time stays, the status time is the new request's.
    expectStatus(await decide(t, user.token, provider.name, 'revoke'), 204);
    await withClockAhead(120_000, () => requestAccess(t, provider, user.userId));
    const again = await listed();
    expect(again.created_at).toBe(asked.created_at);
    expect(Date.parse(again.status_changed_at) - Date.parse(approved.status_changed_at)).toBeGreaterThanOrEqual(60_000);
  });

  it('GET /me/providers/{name}: 404 connection_not_found for no record, an unknown or a malformed name', async () => {
    const user = await t.newUser();
    const provider = await t.newProvider();
    for (const name of [provider.name, 'no-such-provider', 'UPPER', '%20', 'x'.repeat(200)]) {
      expectError(await t.call('GET', `${ME}/providers/${name}`, { token: user.token }), 404, 'connection_not_found');
    }
  });

  it('approve: pending -> 200 ConnectionResponse approved', async () => {
    const { user, provider } = await pendingPair(t);
    const response = expectStatus(await decide(t, user.token, provider.name, 'approve'), 200);
    expect(response.json()).toEqual({
      provider_name: provider.name,
      provider_url: `https://${provider.name}.example.com`,
      is_authorized: true,
      status: 'approved',
      ...CONNECTION_DATES,
    });
    expect(await connectionStatus(t, provider, user.userId)).toBe('approved');
  });

  it('approve: approved or revoked -> 409 connection_not_pending; no record or unknown provider -> 404', async () => {
    const { user, provider } = await pendingPair(t);
    expectStatus(await decide(t, user.token, provider.name, 'approve'), 200);
    expectError(await decide(t, user.token, provider.name, 'approve'), 409, 'connection_not_pending');
    expectStatus(await decide(t, user.token, provider.name, 'revoke'), 204);
    expectError(await decide(t, user.token, provider.name, 'approve'), 409, 'connection_not_pending');
    const stranger = await t.newProvider();
    expectError(await decide(t, user.token, stranger.name, 'approve'), 404, 'connection_not_found');
    expectError(await decide(t, user.token, 'unknown-name', 'approve'), 404, 'connection_not_found');
  });

  it('approve at MAX_PROVIDERS_PER_USER is 409 provider_limit_reached; a revoke frees a slot', async () => {
    const user = await t.newUser();
    const providers = [await t.newProvider(), await t.newProvider(), await t.newProvider()];
    for (const provider of providers) await requestAccess(t, provider, user.userId);
    expectStatus(await decide(t, user.token, providers[0]!.name, 'approve'), 200);
    expectStatus(await decide(t, user.token, providers[1]!.name, 'approve'), 200);
    const body = expectError(await decide(t, user.token, providers[2]!.name, 'approve'), 409, 'provider_limit_reached');
    expect(body.details).toMatchObject({ max: 2 });
    expect(await connectionStatus(t, providers[2]!, user.userId)).toBe('pending');
    expectStatus(await decide(t, user.token, providers[0]!.name, 'revoke'), 204);
    expectStatus(await decide(t, user.token, providers[2]!.name, 'approve'), 200);
  });

  it('concurrent approvals never exceed MAX_PROVIDERS_PER_USER', async () => {
    const user = await t.newUser();
    const providers = await Promise.all(Array.from({ length: 5 }, () => t.newProvider()));
    for (const provider of providers) await requestAccess(t, provider, user.userId);
    const responses = await Promise.all(providers.map((p) => decide(t, user.token, p.name, 'approve')));
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(2);
    for (const r of responses.filter((r) => r.statusCode !== 200)) expectError(r, 409, 'provider_limit_reached');
    const listed = expectStatus(await t.call('GET', `${ME}/providers`, { token: user.token }), 200).json<{
      connections: Array<{ status: string }>;
    }>();
    expect(listed.connections.filter((c) => c.status === 'approved')).toHaveLength(2);
  });

  it('reject without past subscriptions deletes the record: 200 with status null', async () => {
    const { user, provider } = await pendingPair(t);
    const response = expectStatus(await decide(t, user.token, provider.name, 'reject'), 200);
    expect(response.json()).toEqual({
      provider_name: provider.name,
      provider_url: `https://${provider.name}.example.com`,
      is_authorized: false,
      status: null,
      created_at: null,
      status_changed_at: null,
    });
    expect(await connectionStatus(t, provider, user.userId)).toBeNull();
    expectError(
      await t.call('GET', `${ME}/providers/${provider.name}`, { token: user.token }),
      404,
      'connection_not_found',
    );
    // With no record the provider can ask again.
    expect((await requestAccess(t, provider, user.userId)).status).toBe('pending');
  });

  it('reject after past subscriptions from that provider keeps the record as revoked', async () => {
    const { user, provider, subs } = await approvedPair(t);
    expectStatus(await t.call('POST', subs, { token: provider.token, body: { name: 'From provider' } }), 201);
    expectStatus(await decide(t, user.token, provider.name, 'revoke'), 204);
    await requestAccess(t, provider, user.userId);
    const response = expectStatus(await decide(t, user.token, provider.name, 'reject'), 200);
    expect(response.json()).toMatchObject({ status: 'revoked', is_authorized: false });
    expect(await connectionStatus(t, provider, user.userId)).toBe('revoked');
    // The subscription stays traceable to the provider.
    const own = expectStatus(await t.call('GET', '/api/v1/subs', { token: user.token }), 200).json<
      Array<{ provider_name: string }>
    >();
    expect(own.map((s) => s.provider_name)).toEqual([provider.name]);
  });

  it('reject: non-pending 409 connection_not_pending, no record 404', async () => {
    const { user, provider } = await pendingPair(t);
    expectStatus(await decide(t, user.token, provider.name, 'approve'), 200);
    expectError(await decide(t, user.token, provider.name, 'reject'), 409, 'connection_not_pending');
    expectStatus(await decide(t, user.token, provider.name, 'revoke'), 204);
    expectError(await decide(t, user.token, provider.name, 'reject'), 409, 'connection_not_pending');
    expectError(await decide(t, user.token, (await t.newProvider()).name, 'reject'), 404, 'connection_not_found');
  });

  it('revoke: pending and approved -> revoked (204, empty body), again 204; no record 404', async () => {
    for (const approve of [false, true]) {
      const { user, provider } = await pendingPair(t);
      if (approve) expectStatus(await decide(t, user.token, provider.name, 'approve'), 200);
      const first = expectStatus(await decide(t, user.token, provider.name, 'revoke'), 204);
      expect(first.body).toBe('');
      expect(await connectionStatus(t, provider, user.userId)).toBe('revoked');
      expectStatus(await decide(t, user.token, provider.name, 'revoke'), 204);
      expect(await connectionStatus(t, provider, user.userId)).toBe('revoked');
    }
    const user = await t.newUser();
    expectError(await decide(t, user.token, (await t.newProvider()).name, 'revoke'), 404, 'connection_not_found');
    expectError(await decide(t, user.token, 'unknown-name', 'revoke'), 404, 'connection_not_found');
  });

  it("one user cannot see or decide on another user's connections", async () => {
    const { provider } = await pendingPair(t);
    const other = await t.newUser();
    expectError(
      await t.call('GET', `${ME}/providers/${provider.name}`, { token: other.token }),
      404,
      'connection_not_found',
    );
    expectError(await decide(t, other.token, provider.name, 'approve'), 404, 'connection_not_found');
  });

  it('authentication: missing 401, unknown or provider token 401 invalid_token, disabled user 403', async () => {
    const { user, provider } = await pendingPair(t);
    const paths: Array<[string, string]> = [
      ['GET', ME],
      ['GET', `${ME}/providers`],
      ['GET', `${ME}/providers/${provider.name}`],
      ['POST', `${ME}/providers/${provider.name}/approve`],
      ['POST', `${ME}/providers/${provider.name}/reject`],
      ['POST', `${ME}/providers/${provider.name}/revoke`],
    ];
    for (const [method, url] of paths) {
      const m = method as 'GET' | 'POST';
      expectError(await t.call(m, url), 401, 'missing_token');
      expectError(await t.call(m, url, { token: 'Z'.repeat(43) }), 401, 'invalid_token');
      expectError(await t.call(m, url, { token: provider.token }), 401, 'invalid_token');
    }
    await t.database.db.updateTable('users').set({ is_active: 0 }).where('user_id', '=', user.userId).execute();
    for (const [method, url] of paths) {
      expectError(await t.call(method as 'GET' | 'POST', url, { token: user.token }), 403, 'account_disabled');
    }
    expect(await connectionStatus(t, provider, user.userId)).toBe('pending');
  });
});

describeEachDatabase('user self-service with MAX_PROVIDERS_PER_USER=1', (kind) => {
  const t = useTestApp(kind, { MAX_PROVIDERS_PER_USER: '1' });

  it('the second approval is 409 provider_limit_reached', async () => {
    const { user } = await approvedPair(t);
    const second = await t.newProvider();
    await requestAccess(t, second, user.userId);
    expectError(await decide(t, user.token, second.name, 'approve'), 409, 'provider_limit_reached');
  });
});
