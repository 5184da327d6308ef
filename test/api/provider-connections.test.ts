// HTTP contract of the provider API /api/v1/providers/{user_id} (docs/api.md, Provider API; docs/providers.md).
import { expect, it } from 'vitest';
import { verifyInvite } from '../../src/modules/connections/invite.js';
import { findUser } from '../../src/modules/users/users.store.js';
import { describeEachDatabase, TEST_BASE_URL, useTestApp } from '../support/harness.js';
import {
  CONNECTION_DATES,
  connectionStatus,
  decide,
  PROVIDERS,
  requestAccess,
  freshUserId,
} from '../support/factories.js';
import { expectError, expectStatus } from '../support/expect.js';

describeEachDatabase('provider API', (kind) => {
  const t = useTestApp(kind);

  it('POST opens a pending request: 201 {user_id, status, connection_link}', async () => {
    const user = await t.newUser();
    const provider = await t.newProvider();
    const response = await t.call('POST', `${PROVIDERS}/${user.userId}`, { token: provider.token });
    expectStatus(response, 201);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['connection_link', 'status', 'user_id']);
    expect(body).toEqual({
      user_id: user.userId,
      status: 'pending',
      connection_link: `${TEST_BASE_URL}/connect/${provider.name}`,
    });
    expect(await connectionStatus(t, provider, user.userId)).toBe('pending');
  });

  it('POST creates an active account for an unknown user_id', async () => {
    const provider = await t.newProvider();
    const userId = freshUserId();
    expect(await findUser(t.database.db, userId)).toBeUndefined();
    expect((await requestAccess(t, provider, userId)).status).toBe('pending');
    expect((await findUser(t.database.db, userId))?.is_active).toBe(1);
    // The new account is usable by another provider too, without a second user row.
    const other = await t.newProvider();
    expect((await requestAccess(t, other, userId)).status).toBe('pending');
  });

  it('POST on a pending or approved connection is 409 connection_exists', async () => {
    const user = await t.newUser();
    const provider = await t.newProvider();
    await requestAccess(t, provider, user.userId);
    expectError(
      await t.call('POST', `${PROVIDERS}/${user.userId}`, { token: provider.token }),
      409,
      'connection_exists',
    );
    expectStatus(await decide(t, user.token, provider.name, 'approve'), 200);
    expectError(
      await t.call('POST', `${PROVIDERS}/${user.userId}`, { token: provider.token }),
      409,
      'connection_exists',
    );
    expect(await connectionStatus(t, provider, user.userId)).toBe('approved');
  });

  it('concurrent first requests for one pair: one 201, the others 409', async () => {
    const provider = await t.newProvider();
    const userId = freshUserId();
    const responses = await Promise.all(
      Array.from({ length: 4 }, () => t.call('POST', `${PROVIDERS}/${userId}`, { token: provider.token })),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
  });

  it('re-request after revoke goes back to pending and can be approved again', async () => {
    const user = await t.newUser();
    const provider = await t.newProvider();
    await requestAccess(t, provider, user.userId);
    expectStatus(await decide(t, user.token, provider.name, 'approve'), 200);
    expectStatus(await decide(t, user.token, provider.name, 'revoke'), 204);
    expect(await connectionStatus(t, provider, user.userId)).toBe('revoked');
    expect((await requestAccess(t, provider, user.userId)).status).toBe('pending');
    const approved = expectStatus(await decide(t, user.token, provider.name, 'approve'), 200).json();
    expect(approved).toMatchObject({ status: 'approved', is_authorized: true });
  });

  it('GET answers {user_id, status}, or 404 connection_not_found', async () => {
    const user = await t.newUser();
    const provider = await t.newProvider();
    expectError(
      await t.call('GET', `${PROVIDERS}/${user.userId}`, { token: provider.token }),
      404,
      'connection_not_found',
    );
    expectError(
      await t.call('GET', `${PROVIDERS}/${freshUserId()}`, { token: provider.token }),
      404,
      'connection_not_found',
    );
    await requestAccess(t, provider, user.userId);
    const response = expectStatus(await t.call('GET', `${PROVIDERS}/${user.userId}`, { token: provider.token }), 200);
    expect(response.json()).toEqual({ user_id: user.userId, status: 'pending', ...CONNECTION_DATES });
    // Another provider has no record for this user.
    const other = await t.newProvider();
    expectError(
      await t.call('GET', `${PROVIDERS}/${user.userId}`, { token: other.token }),
      404,
      'connection_not_found',
    );
  });

  it.each([['pending'], ['approved'], ['revoked']])(
    'DELETE revokes a %s connection: 200 {user_id, status: revoked, detail}',
    async (from) => {
      const user = await t.newUser();
      const provider = await t.newProvider();
      await requestAccess(t, provider, user.userId);
      if (from !== 'pending') expectStatus(await decide(t, user.token, provider.name, 'approve'), 200);
      if (from === 'revoked') expectStatus(await decide(t, user.token, provider.name, 'revoke'), 204);
      const response = expectStatus(
        await t.call('DELETE', `${PROVIDERS}/${user.userId}`, { token: provider.token }),
        200,
      );
      expect(response.json()).toEqual({
        user_id: user.userId,
        status: 'revoked',
        detail: 'Provider connection revoked',
      });
      expect(await connectionStatus(t, provider, user.userId)).toBe('revoked');
      // The record is kept: the user still sees it as revoked.
      const seen = expectStatus(
        await t.call('GET', `/api/v1/me/providers/${provider.name}`, { token: user.token }),
        200,
      );
      expect(seen.json()).toMatchObject({ status: 'revoked', is_authorized: false });
    },
  );

  it('DELETE without a record is 404 connection_not_found', async () => {
    const user = await t.newUser();
    const provider = await t.newProvider();
    expectError(
      await t.call('DELETE', `${PROVIDERS}/${user.userId}`, { token: provider.token }),
      404,
      'connection_not_found',
    );
  });

  it.each([['0'], ['-1'], ['abc'], ['1.5'], ['99999999999999999999']])(
    'user_id %s is 400 validation_failed',
    async (id) => {
      const provider = await t.newProvider();
      for (const method of ['POST', 'GET', 'DELETE'] as const) {
        const body = expectError(
          await t.call(method, `${PROVIDERS}/${id}`, { token: provider.token }),
          400,
          'validation_failed',
        );
        expect(JSON.stringify(body.details)).toContain('user_id');
      }
    },
  );

  it('authentication: missing 401 missing_token, unknown or user token 401 invalid_token, disabled 403', async () => {
    const user = await t.newUser();
    const provider = await t.newProvider();
    for (const method of ['POST', 'GET', 'DELETE'] as const) {
      const url = `${PROVIDERS}/${user.userId}`;
      expectError(await t.call(method, url), 401, 'missing_token');
      expectError(await t.call(method, url, { token: 'Z'.repeat(43) }), 401, 'invalid_token');
      expectError(await t.call(method, url, { token: user.token }), 401, 'invalid_token');
    }
    // A provider token is unknown on user routes.
    expectError(await t.call('GET', '/api/v1/me', { token: provider.token }), 401, 'invalid_token');
    expectError(await t.call('GET', '/api/v1/subs', { token: provider.token }), 401, 'invalid_token');
    await t.providers.update(provider.hash, { is_active: false });
    expectError(
      await t.call('POST', `${PROVIDERS}/${user.userId}`, { token: provider.token }),
      403,
      'account_disabled',
    );
    expectError(
      await t.call('GET', `${PROVIDERS}/${user.userId}/subs`, { token: provider.token }),
      403,
      'account_disabled',
    );
  });

  it('a rotated provider token replaces the old one', async () => {
    const user = await t.newUser();
    const provider = await t.newProvider();
    const rotated = await t.providers.rotateToken(provider.hash);
    expect(rotated.api_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expectError(await t.call('GET', `${PROVIDERS}/${user.userId}`, { token: provider.token }), 401, 'invalid_token');
    expectError(
      await t.call('GET', `${PROVIDERS}/${user.userId}`, { token: rotated.api_token }),
      404,
      'connection_not_found',
    );
  });
});

describeEachDatabase('provider API connection_link template', (kind) => {
  const t = useTestApp(kind, {
    ADMIN_SECRET: 'link-test-secret-of-at-least-32-characters',
    CONNECTION_LINK_TEMPLATE: 'https://bot.example/start?p={provider_name}&u={user_id}&i={invite}&b={base_url}',
  });

  it('expands every placeholder; the invite verifies with INVITE_SECRET for that user and provider', async () => {
    const user = await t.newUser();
    const provider = await t.newProvider();
    const { connection_link: link } = await requestAccess(t, provider, user.userId);
    const url = new URL(link as string);
    expect(url.origin + url.pathname).toBe('https://bot.example/start');
    expect(url.searchParams.get('p')).toBe(provider.name);
    expect(url.searchParams.get('u')).toBe(String(user.userId));
    expect(url.searchParams.get('b')).toBe(TEST_BASE_URL);
    const invite = url.searchParams.get('i') as string;
    expect(invite).toMatch(/^[A-Za-z0-9_-]{43}\.\d+$/);
    const expires = Number(invite.split('.')[1]);
    expect(Math.abs(expires - (Date.now() / 1000 + 7 * 86_400))).toBeLessThan(60);
    const key = t.config.inviteSecret as string;
    expect(verifyInvite(key, invite, user.userId, provider.hash)).toBe(true);
    expect(verifyInvite(key, invite, user.userId + 1, provider.hash)).toBe(false);
  });
});

describeEachDatabase('provider API connection_link without INVITE_SECRET', (kind) => {
  const t = useTestApp(kind, {
    CONNECTION_LINK_TEMPLATE: '{base_url}/connect/{provider_name}?user={user_id}&invite={invite}',
  });

  it('still issues a well-formed invite, signed with a per-process random key', async () => {
    expect(t.config.inviteSecret).toBeNull();
    const user = await t.newUser();
    const provider = await t.newProvider();
    const { connection_link: link } = await requestAccess(t, provider, user.userId);
    const url = new URL(link as string);
    expect(url.pathname).toBe(`/connect/${provider.name}`);
    expect(url.searchParams.get('user')).toBe(String(user.userId));
    const invite = url.searchParams.get('invite') as string;
    expect(invite).toMatch(/^[A-Za-z0-9_-]{43}\.\d+$/);
    expect(verifyInvite('', invite, user.userId, provider.hash)).toBe(false);
  });
});
