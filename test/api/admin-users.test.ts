// Admin user endpoints over HTTP (docs/admin-api.md, Endpoints): CRUD, token rotation, deactivation and delete cascades.
import { expect, it } from 'vitest';
import { createInvite } from '../../src/modules/connections/invite.js';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import {
  internalRef,
  subsApi,
  vlessUri,
  adminCreateProvider,
  adminCreateUser,
  freshUserId,
  linkLines,
  managedSubscription,
  type AdminUser,
} from '../support/factories.js';
import { TOKEN_RE, UUID_RE, expectError } from '../support/expect.js';

const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** What the admin API shows of a user it created: everything but the token. */
const userView = (user: { user_id: number; user_hash: string; created_at: string }, is_active: boolean) => ({
  user_id: user.user_id,
  user_hash: user.user_hash,
  is_active,
  created_at: user.created_at,
});

describeEachDatabase('admin users: create and read', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'users-secret-of-at-least-32-characters' });

  it('creates a user: 201 with user_id, user_hash, api_token, is_active, created_at; the token works', async () => {
    const userId = freshUserId();
    const res = await t.admin('POST', '/users', { user_id: userId });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<Record<string, unknown>>();
    expect(Object.keys(body).sort()).toEqual(['api_token', 'created_at', 'is_active', 'user_hash', 'user_id']);
    expect(body['user_id']).toBe(userId);
    expect(body['user_hash']).toMatch(UUID_RE);
    expect(body['api_token']).toMatch(TOKEN_RE);
    expect(body['is_active']).toBe(true);
    expect(body['created_at']).toMatch(ISO_RE);
    const me = await t.call('GET', '/api/v1/subs', { token: body['api_token'] as string });
    expect(me.statusCode, me.body).toBe(200);
  });

  it('refuses an existing user_id with 409 user_exists', async () => {
    const user = await adminCreateUser(t);
    expectError(await t.admin('POST', '/users', { user_id: user.user_id }), 409, 'user_exists');
  });

  it.each([
    ['zero', { user_id: 0 }],
    ['negative', { user_id: -3 }],
    ['fractional', { user_id: 1.5 }],
    ['string', { user_id: '12' }],
    ['null', { user_id: null }],
    ['missing', {}],
    ['unsafe integer', { user_id: 2 ** 53 }],
    ['not an object', [1]],
  ])('refuses a %s user_id with 400 validation_failed', async (_name, body) => {
    expectError(await t.admin('POST', '/users', body), 400, 'validation_failed');
  });

  it('refuses a missing body with 400', async () => {
    expectError(await t.admin('POST', '/users'), 400, 'validation_failed');
  });

  it('gets a user without its token', async () => {
    const user = await adminCreateUser(t);
    const res = await t.admin('GET', `/users/${user.user_id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(userView(user, true));
  });

  it('answers 404 user_not_found for an unknown user and 400 for a malformed id', async () => {
    expectError(await t.admin('GET', `/users/${freshUserId()}`), 404, 'user_not_found');
    for (const bad of ['abc', '0', '-1', '1.5']) {
      expectError(await t.admin('GET', `/users/${bad}`), 400, 'validation_failed');
    }
  });
});

describeEachDatabase('admin users: activation', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'users-secret-of-at-least-32-characters' });

  it('deactivates: 403 account_disabled for the token, 404 for a warm public link, includers drop its lines', async () => {
    const user = await adminCreateUser(t);
    const own = vlessUri();
    const sub = await subsApi(t).create([own], user.api_token);
    const includer = await subsApi(t).create([internalRef(sub.token)]);
    expect(await linkLines(t, sub.token)).toHaveLength(1); // warms the render cache
    expect(await linkLines(t, includer.token)).toHaveLength(1);

    const res = await t.admin('PATCH', `/users/${user.user_id}`, { is_active: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(userView(user, false));

    expectError(await t.call('GET', '/api/v1/subs', { token: user.api_token }), 403, 'account_disabled');
    expect(await linkLines(t, sub.token)).toBe(404);
    expect(await linkLines(t, includer.token)).toEqual([]);
    expect((await t.admin('GET', `/users/${user.user_id}`)).json()).toMatchObject({ is_active: false });
  });

  it('reactivates: the token and the link work again at once', async () => {
    const user = await adminCreateUser(t);
    const sub = await subsApi(t).create([vlessUri()], user.api_token);
    await t.admin('PATCH', `/users/${user.user_id}`, { is_active: false });
    expect(await linkLines(t, sub.token)).toBe(404);

    const res = await t.admin('PATCH', `/users/${user.user_id}`, { is_active: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ is_active: true });
    expect((await t.call('GET', '/api/v1/subs', { token: user.api_token })).statusCode).toBe(200);
    expect(await linkLines(t, sub.token)).toHaveLength(1);
  });

  it('is idempotent', async () => {
    const user = await adminCreateUser(t);
    for (let i = 0; i < 2; i++) {
      expect((await t.admin('PATCH', `/users/${user.user_id}`, { is_active: true })).statusCode).toBe(200);
    }
  });

  it('answers 404 for an unknown user and 400 for a bad body', async () => {
    expectError(await t.admin('PATCH', `/users/${freshUserId()}`, { is_active: false }), 404, 'user_not_found');
    const user = await adminCreateUser(t);
    for (const body of [{}, { is_active: 'false' }, { is_active: null }, { is_active: 0 }]) {
      expectError(await t.admin('PATCH', `/users/${user.user_id}`, body), 400, 'validation_failed');
    }
    expectError(await t.admin('PATCH', `/users/${user.user_id}`), 400, 'validation_failed');
  });
});

describeEachDatabase('admin users: refresh-token', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'users-secret-of-at-least-32-characters' });

  it('issues a new token; the old one is refused at once with 401 invalid_token', async () => {
    const user = await adminCreateUser(t);
    expect((await t.call('GET', '/api/v1/subs', { token: user.api_token })).statusCode).toBe(200);
    const res = await t.admin('POST', `/users/${user.user_id}/refresh-token`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ user_id: number; api_token: string }>();
    expect(Object.keys(body).sort()).toEqual(['api_token', 'user_id']);
    expect(body.user_id).toBe(user.user_id);
    expect(body.api_token).toMatch(TOKEN_RE);
    expect(body.api_token).not.toBe(user.api_token);
    expectError(await t.call('GET', '/api/v1/subs', { token: user.api_token }), 401, 'invalid_token');
    expect((await t.call('GET', '/api/v1/subs', { token: body.api_token })).statusCode).toBe(200);
  });

  it('answers 404 user_not_found for an unknown user', async () => {
    expectError(await t.admin('POST', `/users/${freshUserId()}/refresh-token`), 404, 'user_not_found');
  });
});

describeEachDatabase('admin users: delete', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'users-secret-of-at-least-32-characters' });
  const count = async (table: 'subscriptions' | 'sources' | 'connections', column: string, value: unknown) => {
    const rows = await t.database.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .where(column as never, '=', value as never)
      .executeTakeFirstOrThrow();
    return Number(rows.n);
  };

  it('cascades to subscriptions, sources and connections; links drop at once; 404 afterwards', async () => {
    const user = await adminCreateUser(t);
    const sub = await subsApi(t).create([vlessUri(), vlessUri()], user.api_token);
    const includer = await subsApi(t).create([internalRef(sub.token), vlessUri()]);
    const provider = await adminCreateProvider(t);
    const invite = createInvite(t.config.inviteSecret as string, user.user_id, provider.provider_hash);
    const authorized = await t.admin('POST', `/providers/${provider.provider_name}/authorize/${user.user_id}`, {
      invite,
    });
    expect(authorized.statusCode, authorized.body).toBe(200);
    expect(await linkLines(t, sub.token)).toHaveLength(2);
    expect(await linkLines(t, includer.token)).toHaveLength(3);

    const res = await t.admin('DELETE', `/users/${user.user_id}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');

    expect(await count('subscriptions', 'user_id', user.user_id)).toBe(0);
    expect(await count('sources', 'subscription_token', sub.token)).toBe(0);
    expect(await count('connections', 'user_id', user.user_id)).toBe(0);
    expect(await linkLines(t, sub.token)).toBe(404);
    expect(await linkLines(t, includer.token)).toHaveLength(1);
    expectError(await t.admin('GET', `/users/${user.user_id}`), 404, 'user_not_found');
    expectError(await t.call('GET', '/api/v1/subs', { token: user.api_token }), 401, 'invalid_token');
    expectError(await t.admin('DELETE', `/users/${user.user_id}`), 404, 'user_not_found');
  });

  it('deleting a provider owner deletes the provider and the subscriptions it manages', async () => {
    const owner = await adminCreateUser(t);
    const provider = await adminCreateProvider(t, owner);
    const customer = await adminCreateUser(t);
    const managed = await managedSubscription(t, customer.api_token, provider.provider_hash);
    expect(await linkLines(t, managed)).toHaveLength(1);

    expect((await t.admin('DELETE', `/users/${owner.user_id}`)).statusCode).toBe(204);
    expectError(await t.admin('GET', `/providers/by-name/${provider.provider_name}`), 404, 'provider_not_found');
    expect(await linkLines(t, managed)).toBe(404);
    expect((await t.admin('GET', `/users/${customer.user_id}`)).statusCode).toBe(200);
  });

  it('answers 404 user_not_found for an unknown user', async () => {
    expectError(await t.admin('DELETE', `/users/${freshUserId()}`), 404, 'user_not_found');
  });
});

interface ListedUser {
  user_id: number;
  user_hash: string;
  is_active: boolean;
  created_at: string;
  subscription_count: number;
}
interface UserPage {
  users: ListedUser[];
  next_cursor: string | null;
}

/** Newest first as the list orders: creation time, then user id, both descending. */
const newestFirst = (a: { created_at: string; user_id: number }, b: { created_at: string; user_id: number }) =>
  b.created_at.localeCompare(a.created_at) || b.user_id - a.user_id;

describeEachDatabase('admin users: list', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'users-secret-of-at-least-32-characters' });

  async function page(query: string): Promise<UserPage> {
    const res = await t.admin('GET', `/users?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<UserPage>();
  }

  it('lists users newest first with status, creation time and subscription count, never a token', async () => {
    const [a, b, c] = [
      await adminCreateUser(t, 110_001),
      await adminCreateUser(t, 110_002),
      await adminCreateUser(t, 110_003),
    ];
    await subsApi(t).create([vlessUri()], b.api_token);
    await subsApi(t).create([], b.api_token);
    await t.admin('PATCH', `/users/${c.user_id}`, { is_active: false });

    const listed = await page('search=110');
    expect(listed.next_cursor).toBeNull();
    expect(listed.users).toEqual(
      [
        { ...userView(a, true), subscription_count: 0 },
        { ...userView(b, true), subscription_count: 2 },
        { ...userView(c, false), subscription_count: 0 },
      ].sort(newestFirst),
    );
  });

  it('keeps ids starting with the search digits and filters by status', async () => {
    for (const id of [220, 22_001, 2_200_002, 3_220]) await adminCreateUser(t, id);
    await t.admin('PATCH', '/users/22001', { is_active: false });
    const ids = async (query: string) => (await page(query)).users.map((u) => u.user_id).sort((x, y) => x - y);
    expect(await ids('search=220')).toEqual([220, 22_001, 2_200_002]);
    expect(await ids('search=220&status=active')).toEqual([220, 2_200_002]);
    expect(await ids('search=22&status=disabled')).toEqual([22_001]);
    expect(await ids('search=3220')).toEqual([3_220]);
    expect(await ids('search=9999999')).toEqual([]);
  });

  it('pages with next_cursor until null, and a user deleted between pages skips nobody', async () => {
    const created: AdminUser[] = [];
    for (let i = 1; i <= 5; i++) created.push(await adminCreateUser(t, 330_000 + i));
    const expected = created.map((u) => u.user_id);
    const all = (await page('search=3300')).users;
    expect(all.map((u) => u.user_id).sort()).toEqual(expected.sort());

    const first = await page('search=3300&limit=2');
    expect(first.users).toEqual(all.slice(0, 2));
    expect(first.next_cursor).toEqual(expect.any(String));
    // The last user of the page goes away; its cursor still leads to the users after it.
    expect((await t.admin('DELETE', `/users/${all[1]?.user_id}`)).statusCode).toBe(204);
    const second = await page(`search=3300&limit=2&cursor=${first.next_cursor}`);
    expect(second.users).toEqual(all.slice(2, 4));
    const third = await page(`search=3300&limit=2&cursor=${second.next_cursor}`);
    expect(third.users).toEqual(all.slice(4));
    expect(third.next_cursor).toBeNull();
  });

  it.each([
    ['search with letters', 'search=abc'],
    ['empty search', 'search='],
    ['negative search', 'search=-1'],
    ['search of 17 digits', `search=${'1'.repeat(17)}`],
    ['unknown status', 'status=gone'],
    ['empty status', 'status='],
    ['cursor with symbols', 'cursor=a%2Bb'],
    ['cursor too long', `cursor=${'a'.repeat(129)}`],
    ['cursor not from this endpoint', `cursor=${Buffer.from('nonsense').toString('base64url')}`],
    ['cursor with a bad id', `cursor=${Buffer.from('2026-01-01T00:00:00.000Z|0').toString('base64url')}`],
    ['limit 0', 'limit=0'],
    ['limit 201', 'limit=201'],
    ['fractional limit', 'limit=1.5'],
    ['limit not a number', 'limit=ten'],
    ['unknown parameter', 'sort=asc'],
  ])('refuses a %s with 400 validation_failed', async (_name, query) => {
    const envelope = expectError(await t.admin('GET', `/users?${query}`), 400, 'validation_failed');
    expect(envelope.details).not.toBeNull();
  });
});
