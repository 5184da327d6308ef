// Admin provider endpoints over HTTP (docs/admin-api.md, Endpoints): create, list, lookups, changes, tokens, delete cascade.
import { expect, it } from 'vitest';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import {
  internalRef,
  subsApi,
  adminCreateProvider,
  adminCreateUser,
  freshUserId,
  linkLines,
  managedSubscription,
  uniqueProviderName,
  type AdminProvider,
} from '../support/factories.js';
import { PROVIDER_KEYS, TOKEN_RE, expectError, expectNewProvider } from '../support/expect.js';

const UNKNOWN_HASH = '00000000-0000-4000-8000-000000000000';

const publicView = ({ api_token: _token, ...provider }: AdminProvider) => provider;

describeEachDatabase('admin providers: create', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'providers-secret-of-at-least-32-characters' });

  it('creates a provider: 201 Provider with api_token, owned by the user with owner_hash', async () => {
    const owner = await adminCreateUser(t);
    const name = uniqueProviderName();
    const res = await t.admin('POST', '/providers', {
      owner_hash: owner.user_hash,
      provider_name: name,
      provider_url: 'https://bot.example.com/start',
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<AdminProvider>();
    expectNewProvider(body, {
      provider_name: name,
      provider_url: 'https://bot.example.com/start',
      owner_id: owner.user_id,
    });
    // The token identifies the provider on the provider API (it is not a user token).
    expectError(await t.call('GET', '/api/v1/subs', { token: body.api_token as string }), 401, 'invalid_token');
  });

  it('refuses an unknown owner_hash with 400', async () => {
    const res = await t.admin('POST', '/providers', {
      owner_hash: UNKNOWN_HASH,
      provider_name: uniqueProviderName(),
      provider_url: '',
    });
    const { details } = expectError(res, 400, 'validation_failed');
    expect(JSON.stringify(details)).toContain('owner_hash');
  });

  it('refuses a taken name and a second provider for one owner with 409', async () => {
    const first = await adminCreateProvider(t);
    const other = await adminCreateUser(t);
    const sameName = await t.admin('POST', '/providers', {
      owner_hash: other.user_hash,
      provider_name: first.provider_name,
      provider_url: '',
    });
    expectError(sameName, 409, 'name_exists');
    const owner = await adminCreateUser(t);
    await adminCreateProvider(t, owner);
    const sameOwner = await t.admin('POST', '/providers', {
      owner_hash: owner.user_hash,
      provider_name: uniqueProviderName(),
      provider_url: '',
    });
    expectError(sameOwner, 409, 'provider_exists');
  });

  it.each([
    ['too short', 'abc'],
    ['too long', 'a'.repeat(17)],
    ['upper case', 'MyBot'],
    ['leading hyphen', '-abcd'],
    ['double hyphen', 'ab--cd'],
    ['space', 'ab cd'],
  ])('refuses a provider name that is %s', async (_why, name) => {
    const owner = await adminCreateUser(t);
    const res = await t.admin('POST', '/providers', {
      owner_hash: owner.user_hash,
      provider_name: name,
      provider_url: '',
    });
    expectError(res, 400, 'validation_failed');
  });

  it('refuses missing fields and a non-http provider_url', async () => {
    const owner = await adminCreateUser(t);
    for (const body of [
      { provider_name: uniqueProviderName(), provider_url: '' },
      { owner_hash: owner.user_hash, provider_url: '' },
      { owner_hash: owner.user_hash, provider_name: uniqueProviderName(), provider_url: 'ftp://x.example.com' },
    ]) {
      expectError(await t.admin('POST', '/providers', body), 400, 'validation_failed');
    }
  });
});

describeEachDatabase('admin providers: read', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'providers-secret-of-at-least-32-characters' });

  it('lists every provider without tokens', async () => {
    const a = await adminCreateProvider(t);
    const b = await adminCreateProvider(t);
    const res = await t.admin('GET', '/providers');
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json<AdminProvider[]>();
    for (const item of list) expect(Object.keys(item).sort()).toEqual(PROVIDER_KEYS);
    expect(list).toEqual(expect.arrayContaining([publicView(a), publicView(b)]));
  });

  it('gets a provider by name and by owner; 404 provider_not_found otherwise', async () => {
    const provider = await adminCreateProvider(t);
    const byName = await t.admin('GET', `/providers/by-name/${provider.provider_name}`);
    expect(byName.statusCode, byName.body).toBe(200);
    expect(byName.json()).toEqual(publicView(provider));
    const byOwner = await t.admin('GET', `/providers/by-owner/${provider.owner_id}`);
    expect(byOwner.statusCode, byOwner.body).toBe(200);
    expect(byOwner.json()).toEqual(publicView(provider));

    expectError(await t.admin('GET', `/providers/by-name/${uniqueProviderName()}`), 404, 'provider_not_found');
    expectError(await t.admin('GET', `/providers/by-owner/${freshUserId()}`), 404, 'provider_not_found');
    const ownerless = await adminCreateUser(t);
    expectError(await t.admin('GET', `/providers/by-owner/${ownerless.user_id}`), 404, 'provider_not_found');
    expectError(await t.admin('GET', '/providers/by-owner/abc'), 400, 'validation_failed');
  });
});

describeEachDatabase('admin providers: update and refresh-token', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'providers-secret-of-at-least-32-characters' });

  it('changes is_active, provider_url and provider_name', async () => {
    const provider = await adminCreateProvider(t);
    const name = uniqueProviderName();
    const res = await t.admin('PATCH', `/providers/${provider.provider_hash}`, {
      is_active: false,
      provider_url: 'https://new.example.com',
      provider_name: name,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      ...publicView(provider),
      is_active: false,
      provider_url: 'https://new.example.com',
      provider_name: name,
    });
    expectError(await t.admin('GET', `/providers/by-name/${provider.provider_name}`), 404, 'provider_not_found');

    const single = await t.admin('PATCH', `/providers/${provider.provider_hash}`, { is_active: true });
    expect(single.json()).toMatchObject({ is_active: true, provider_name: name });
  });

  it('answers 400 no_update_fields, 400 for bad values, 404 and 409 for a taken name', async () => {
    const provider = await adminCreateProvider(t);
    const other = await adminCreateProvider(t);
    expectError(await t.admin('PATCH', `/providers/${provider.provider_hash}`, {}), 400, 'no_update_fields');
    expectError(
      await t.admin('PATCH', `/providers/${provider.provider_hash}`, { is_active: 'no' }),
      400,
      'validation_failed',
    );
    expectError(
      await t.admin('PATCH', `/providers/${provider.provider_hash}`, { provider_name: 'X' }),
      400,
      'validation_failed',
    );
    expectError(await t.admin('PATCH', `/providers/${UNKNOWN_HASH}`, { is_active: false }), 404, 'provider_not_found');
    const clash = await t.admin('PATCH', `/providers/${provider.provider_hash}`, {
      provider_name: other.provider_name,
    });
    expectError(clash, 409, 'name_exists');
  });

  it('refresh-token issues a new token and answers 404 for an unknown provider', async () => {
    const provider = await adminCreateProvider(t);
    const res = await t.admin('POST', `/providers/${provider.provider_hash}/refresh-token`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<AdminProvider>();
    expect(body).toMatchObject(publicView(provider));
    expect(body.api_token).toMatch(TOKEN_RE);
    expect(body.api_token).not.toBe(provider.api_token);
    const probe = `/api/v1/providers/${freshUserId()}`;
    expectError(await t.call('GET', probe, { token: provider.api_token as string }), 401, 'invalid_token');
    expectError(await t.call('GET', probe, { token: body.api_token as string }), 404, 'connection_not_found');
    expectError(await t.admin('POST', `/providers/${UNKNOWN_HASH}/refresh-token`), 404, 'provider_not_found');
  });

  it('a deactivated provider gets 403 account_disabled at once, and works again when reactivated', async () => {
    const provider = await adminCreateProvider(t);
    const probe = `/api/v1/providers/${freshUserId()}`;
    await t.admin('PATCH', `/providers/${provider.provider_hash}`, { is_active: false });
    expectError(await t.call('GET', probe, { token: provider.api_token as string }), 403, 'account_disabled');
    await t.admin('PATCH', `/providers/${provider.provider_hash}`, { is_active: true });
    expectError(await t.call('GET', probe, { token: provider.api_token as string }), 404, 'connection_not_found');
  });
});

describeEachDatabase('admin providers: delete', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'providers-secret-of-at-least-32-characters' });

  it('cascades to the subscriptions it manages; their links and includers drop at once', async () => {
    const provider = await adminCreateProvider(t);
    const customer = await adminCreateUser(t);
    const managed = await managedSubscription(t, customer.api_token, provider.provider_hash);
    const own = await subsApi(t).create([internalRef(managed)], customer.api_token);
    expect(await linkLines(t, managed)).toHaveLength(1);
    expect(await linkLines(t, own.token)).toHaveLength(1);

    const res = await t.admin('DELETE', `/providers/${provider.provider_hash}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');

    expect(await linkLines(t, managed)).toBe(404);
    expect(await linkLines(t, own.token)).toEqual([]);
    const left = await t.database.db.selectFrom('subscriptions').select('token').where('token', '=', managed).execute();
    expect(left).toEqual([]);
    expectError(await t.admin('GET', `/providers/by-name/${provider.provider_name}`), 404, 'provider_not_found');
    // The owner and the customer remain.
    expect((await t.admin('GET', `/users/${provider.owner_id}`)).statusCode).toBe(200);
    expect((await t.call('GET', `/api/v1/subs/${own.token}`, { token: customer.api_token })).statusCode).toBe(200);
    expectError(await t.admin('DELETE', `/providers/${provider.provider_hash}`), 404, 'provider_not_found');
  });
});
