// Admin connection endpoints over HTTP (docs/providers.md, The connection link and the invite): invite-based authorize, listing every status, approve and reject.
import { expect, it } from 'vitest';
import { createInvite } from '../../src/modules/connections/invite.js';
import { describeEachDatabase, useTestApp, type TestApp } from '../support/harness.js';
import {
  adminCreateProvider,
  adminCreateUser,
  CONNECTION_DATES,
  freshUserId,
  uniqueProviderName,
  type AdminProvider,
} from '../support/factories.js';
import { expectError } from '../support/expect.js';

const DAY_MS = 24 * 60 * 60 * 1000;

function inviteFor(t: TestApp, userId: number, provider: AdminProvider, nowMs = Date.now()): string {
  return createInvite(t.config.inviteSecret as string, userId, provider.provider_hash, nowMs);
}

function authorize(t: TestApp, provider: AdminProvider, userId: number, invite = inviteFor(t, userId, provider)) {
  return t.admin('POST', `/providers/${provider.provider_name}/authorize/${userId}`, { invite });
}

/** A pending connection between a fresh user (or `userId`) and a fresh provider, made through authorize. */
async function pending(t: TestApp, userId?: number) {
  const user = userId ?? (await adminCreateUser(t)).user_id;
  const provider = await adminCreateProvider(t);
  const res = await authorize(t, provider, user);
  expect(res.statusCode, res.body).toBe(200);
  return { userId: user, provider };
}

const connectionPath = (userId: number, provider: AdminProvider, action = '') =>
  `/users/${userId}/providers/${provider.provider_name}${action ? `/${action}` : ''}`;

describeEachDatabase('admin connections: authorize', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'connections-secret-of-at-least-32-characters' });

  it('opens a pending connection for a valid invite, creating the user when needed', async () => {
    const provider = await adminCreateProvider(t);
    const userId = freshUserId();
    const res = await authorize(t, provider, userId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ user_id: userId, provider_name: provider.provider_name, status: 'pending' });
    const user = await t.admin('GET', `/users/${userId}`);
    expect(user.statusCode, user.body).toBe(200);
    expect(user.json()).toMatchObject({ is_active: true });
    const view = await t.admin('GET', connectionPath(userId, provider));
    expect(view.json()).toMatchObject({ status: 'pending', is_authorized: false });
  });

  it('leaves an existing connection unchanged and returns its status', async () => {
    const { userId, provider } = await pending(t);
    expect((await t.admin('POST', connectionPath(userId, provider, 'approve'))).statusCode).toBe(200);
    const again = await authorize(t, provider, userId);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ user_id: userId, provider_name: provider.provider_name, status: 'approved' });
  });

  it('refuses bad, foreign and expired invites with 401 invalid_invite', async () => {
    const provider = await adminCreateProvider(t);
    const other = await adminCreateProvider(t);
    const userId = freshUserId();
    const invalid = [
      'not-an-invite',
      inviteFor(t, userId + 1, provider),
      inviteFor(t, userId, other),
      inviteFor(t, userId, provider, Date.now() - 8 * DAY_MS),
      createInvite('some-other-key', userId, provider.provider_hash),
    ];
    for (const invite of invalid) expectError(await authorize(t, provider, userId, invite), 401, 'invalid_invite');
    expectError(await t.admin('GET', `/users/${userId}`), 404, 'user_not_found');
  });

  it('answers 404 provider_not_found for an unknown provider and 400 for bad input', async () => {
    const userId = freshUserId();
    const ghost = await t.admin('POST', `/providers/${uniqueProviderName()}/authorize/${userId}`, { invite: 'x.1' });
    expectError(ghost, 404, 'provider_not_found');
    const provider = await adminCreateProvider(t);
    const base = `/providers/${provider.provider_name}/authorize`;
    expectError(await t.admin('POST', `${base}/${userId}`, {}), 400, 'validation_failed');
    expectError(await t.admin('POST', `${base}/${userId}`, { invite: '' }), 400, 'validation_failed');
    expectError(await t.admin('POST', `${base}/${userId}`), 400, 'validation_failed');
    expectError(await t.admin('POST', `${base}/0`, { invite: 'x' }), 400, 'validation_failed');
  });
});

describeEachDatabase('admin connections: list and get', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'connections-secret-of-at-least-32-characters' });

  it('lists every status, revoked included', async () => {
    const { userId, provider: approved } = await pending(t);
    await t.admin('POST', connectionPath(userId, approved, 'approve'));
    const { provider: revoked } = await pending(t, userId);
    await t.database.db
      .updateTable('connections')
      .set({ had_subscriptions: 1 })
      .where('provider_hash', '=', revoked.provider_hash)
      .execute();
    expect((await t.admin('POST', connectionPath(userId, revoked, 'reject'))).json()).toMatchObject({
      status: 'revoked',
    });
    const { provider: waiting } = await pending(t, userId);

    const res = await t.admin('GET', `/users/${userId}/providers`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      connections: [
        {
          provider_name: approved.provider_name,
          provider_url: approved.provider_url,
          is_authorized: true,
          status: 'approved',
          ...CONNECTION_DATES,
        },
        {
          provider_name: revoked.provider_name,
          provider_url: revoked.provider_url,
          is_authorized: false,
          status: 'revoked',
          ...CONNECTION_DATES,
        },
        {
          provider_name: waiting.provider_name,
          provider_url: waiting.provider_url,
          is_authorized: false,
          status: 'pending',
          ...CONNECTION_DATES,
        },
      ],
    });
  });

  it('lists nothing for a user without connections and answers 404 for an unknown user', async () => {
    const user = await adminCreateUser(t);
    expect((await t.admin('GET', `/users/${user.user_id}/providers`)).json()).toEqual({ connections: [] });
    expectError(await t.admin('GET', `/users/${freshUserId()}/providers`), 404, 'user_not_found');
  });

  it('gets one connection; 404 connection_not_found without a record or for an unknown provider', async () => {
    const { userId, provider } = await pending(t);
    const res = await t.admin('GET', connectionPath(userId, provider));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      provider_name: provider.provider_name,
      provider_url: provider.provider_url,
      is_authorized: false,
      status: 'pending',
      ...CONNECTION_DATES,
    });
    const stranger = await adminCreateUser(t);
    expectError(await t.admin('GET', connectionPath(stranger.user_id, provider)), 404, 'connection_not_found');
    expectError(
      await t.admin('GET', `/users/${userId}/providers/${uniqueProviderName()}`),
      404,
      'connection_not_found',
    );
  });
});

/** What approve and reject answer about the connection to `provider`. */
const connectionAnswer = (
  provider: { provider_name: string; provider_url: string | null },
  is_authorized: boolean,
  status: string | null,
) => ({
  provider_name: provider.provider_name,
  provider_url: provider.provider_url,
  is_authorized,
  status,
  ...(status === null ? { created_at: null, status_changed_at: null } : CONNECTION_DATES),
});

describeEachDatabase('admin connections: approve and reject', (kind) => {
  const t = useTestApp(kind, {
    ADMIN_SECRET: 'connections-secret-of-at-least-32-characters',
    MAX_PROVIDERS_PER_USER: '2',
  });

  it('approves a pending connection; a second approve is 409 connection_not_pending', async () => {
    const { userId, provider } = await pending(t);
    const res = await t.admin('POST', connectionPath(userId, provider, 'approve'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(connectionAnswer(provider, true, 'approved'));
    expectError(await t.admin('POST', connectionPath(userId, provider, 'approve')), 409, 'connection_not_pending');
    expectError(await t.admin('POST', connectionPath(userId, provider, 'reject')), 409, 'connection_not_pending');
  });

  it('refuses approving beyond MAX_PROVIDERS_PER_USER with 409 provider_limit_reached', async () => {
    const { userId, provider: first } = await pending(t);
    const { provider: second } = await pending(t, userId);
    const { provider: third } = await pending(t, userId);
    expect((await t.admin('POST', connectionPath(userId, first, 'approve'))).statusCode).toBe(200);
    expect((await t.admin('POST', connectionPath(userId, second, 'approve'))).statusCode).toBe(200);
    expectError(await t.admin('POST', connectionPath(userId, third, 'approve')), 409, 'provider_limit_reached');
    expect((await t.admin('GET', connectionPath(userId, third))).json()).toMatchObject({ status: 'pending' });
  });

  it('reject deletes a pending request when the provider never created subscriptions', async () => {
    const { userId, provider } = await pending(t);
    const res = await t.admin('POST', connectionPath(userId, provider, 'reject'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(connectionAnswer(provider, false, null));
    expectError(await t.admin('GET', connectionPath(userId, provider)), 404, 'connection_not_found');
    expect((await t.admin('GET', `/users/${userId}/providers`)).json()).toEqual({ connections: [] });
  });

  it('reject keeps the record as revoked when the provider already created subscriptions', async () => {
    const { userId, provider } = await pending(t);
    await t.database.db
      .updateTable('connections')
      .set({ had_subscriptions: 1 })
      .where('user_id', '=', userId)
      .where('provider_hash', '=', provider.provider_hash)
      .execute();
    const res = await t.admin('POST', connectionPath(userId, provider, 'reject'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'revoked', is_authorized: false });
    expect((await t.admin('GET', connectionPath(userId, provider))).json()).toMatchObject({ status: 'revoked' });
  });

  it('answers 404 connection_not_found without a record', async () => {
    const user = await adminCreateUser(t);
    const provider = await adminCreateProvider(t);
    expectError(await t.admin('POST', connectionPath(user.user_id, provider, 'approve')), 404, 'connection_not_found');
    expectError(await t.admin('POST', connectionPath(user.user_id, provider, 'reject')), 404, 'connection_not_found');
    expectError(
      await t.admin('POST', `/users/${user.user_id}/providers/${uniqueProviderName()}/approve`),
      404,
      'connection_not_found',
    );
  });
});

describeEachDatabase('admin connections: invites from real connection links', (kind) => {
  const t = useTestApp(kind, {
    ADMIN_SECRET: 'connections-secret-of-at-least-32-characters',
    CONNECTION_LINK_TEMPLATE: '{base_url}/connect/{provider_name}?user={user_id}&invite={invite}',
  });

  it('accepts the invite of a link the provider API issued', async () => {
    const provider = await adminCreateProvider(t);
    const user = await adminCreateUser(t);
    const requested = await t.call('POST', `/api/v1/providers/${user.user_id}`, {
      token: provider.api_token as string,
    });
    expect(requested.statusCode, requested.body).toBe(201);
    const link = new URL(requested.json<{ connection_link: string }>().connection_link);
    const invite = link.searchParams.get('invite') as string;
    // The user turns the request down (deleting it), then the admin processes the invite: a new pending request.
    expect((await t.admin('POST', connectionPath(user.user_id, provider, 'reject'))).json()).toMatchObject({
      status: null,
    });
    const res = await authorize(t, provider, user.user_id, invite);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ user_id: user.user_id, provider_name: provider.provider_name, status: 'pending' });
  });
});
