// The provider account service the CLI and the admin API share (docs/admin-api.md; README.md, CLI), on each database.
import { expect, it } from 'vitest';
import { AppError } from '../../src/http/errors.js';
import { hashToken } from '../../src/shared/tokens.js';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import { uniqueProviderName, decide, requestAccess } from '../support/factories.js';
import { PROVIDER_KEYS, expectNewProvider } from '../support/expect.js';

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describeEachDatabase('providers service', (kind) => {
  const t = useTestApp(kind);

  it('create returns the Provider shape plus api_token; only the token hash is stored', async () => {
    const owner = await t.newUser();
    const name = uniqueProviderName();
    const created = await t.providers.create({
      owner_id: owner.userId,
      provider_name: name,
      provider_url: 'https://x.example',
    });
    expectNewProvider(created, { provider_name: name, provider_url: 'https://x.example', owner_id: owner.userId });
    const row = await t.database.db
      .selectFrom('providers')
      .selectAll()
      .where('provider_name', '=', name)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(created.api_token));
    expect(JSON.stringify(row)).not.toContain(created.api_token);
  });

  it.each([
    ['abc'],
    ['a'.repeat(17)],
    ['Upper'],
    ['with_underscore'],
    ['double--hyphen'],
    ['-lead'],
    ['trail-'],
    ['spa ce'],
    ['ünï'],
  ])('refuses the provider name %j (400 validation_failed)', async (name) => {
    const owner = await t.newUser();
    const error = await failure(t.providers.create({ owner_id: owner.userId, provider_name: name }));
    expect([error.statusCode, error.code]).toEqual([400, 'validation_failed']);
  });

  // Each suite has its own database, so these fixed names are free.
  it.each([['abcd'], ['a'.repeat(16)], ['a-b-c-d'], ['0000'], ['my-vpn-bot1']])(
    'accepts the provider name %j',
    async (name) => {
      const owner = await t.newUser();
      expect((await t.providers.create({ owner_id: owner.userId, provider_name: name })).provider_name).toBe(name);
    },
  );

  it('refuses a non-http(s) url, an unknown owner, a taken name and a second provider per owner', async () => {
    const owner = await t.newUser();
    for (const url of ['ftp://x.example', 'not a url', `https://x.example/${'a'.repeat(2048)}`]) {
      const error = await failure(
        t.providers.create({ owner_id: owner.userId, provider_name: uniqueProviderName(), provider_url: url }),
      );
      expect(error.code).toBe('validation_failed');
    }
    expect(
      (await failure(t.providers.create({ owner_id: 987_654_321_987, provider_name: uniqueProviderName() }))).code,
    ).toBe('user_not_found');
    const first = await t.providers.create({ owner_id: owner.userId, provider_name: uniqueProviderName() });
    const other = await t.newUser();
    const taken = await failure(t.providers.create({ owner_id: other.userId, provider_name: first.provider_name }));
    expect([taken.statusCode, taken.code]).toEqual([409, 'name_exists']);
    const second = await failure(t.providers.create({ owner_id: owner.userId, provider_name: uniqueProviderName() }));
    expect([second.statusCode, second.code]).toEqual([409, 'provider_exists']);
  });

  it('finds by hash, name and owner, and lists, never with a token', async () => {
    const provider = await t.newProvider();
    const byHash = await t.providers.get(provider.hash);
    expect(Object.keys(byHash).sort()).toEqual(PROVIDER_KEYS);
    expect(await t.providers.getByName(provider.name)).toEqual(byHash);
    expect(await t.providers.getByOwner(provider.ownerId)).toEqual(byHash);
    expect((await t.providers.list()).find((p) => p.provider_hash === provider.hash)).toEqual(byHash);
    // Thunks, so each lookup starts only when awaited (an early rejection would otherwise go unhandled).
    const lookups = [
      () => t.providers.get('nope'),
      () => t.providers.getByName('nope'),
      () => t.providers.getByOwner(1),
    ];
    for (const lookup of lookups) {
      expect((await failure(lookup())).code).toBe('provider_not_found');
    }
  });

  it('update changes is_active, provider_url and provider_name; refuses nothing-to-change and taken names', async () => {
    const provider = await t.newProvider();
    const newName = uniqueProviderName();
    const updated = await t.providers.update(provider.hash, {
      is_active: false,
      provider_url: null,
      provider_name: newName,
    });
    expect(updated).toMatchObject({ is_active: false, provider_url: '', provider_name: newName });
    expect((await failure(t.providers.update(provider.hash, {}))).code).toBe('no_update_fields');
    const other = await t.newProvider();
    expect((await failure(t.providers.update(provider.hash, { provider_name: other.name }))).code).toBe('name_exists');
    expect((await failure(t.providers.update(provider.hash, { provider_name: 'BAD' }))).code).toBe('validation_failed');
    expect((await failure(t.providers.update('nope', { is_active: true }))).code).toBe('provider_not_found');
    // Keeping its own name is not a clash.
    expect((await t.providers.update(provider.hash, { provider_name: newName, is_active: true })).is_active).toBe(true);
  });

  it('rotateToken issues a new token and refuses an unknown provider', async () => {
    const provider = await t.newProvider();
    const rotated = await t.providers.rotateToken(provider.hash);
    expect(rotated.api_token).not.toBe(provider.token);
    expect(rotated.provider_hash).toBe(provider.hash);
    expect((await failure(t.providers.rotateToken('nope'))).code).toBe('provider_not_found');
  });

  it('remove deletes the provider and its connections; unknown is provider_not_found', async () => {
    const user = await t.newUser();
    const provider = await t.newProvider();
    await requestAccess(t, provider, user.userId);
    await t.providers.remove(provider.hash);
    const left = await t.database.db
      .selectFrom('connections')
      .selectAll()
      .where('provider_hash', '=', provider.hash)
      .execute();
    expect(left).toEqual([]);
    expect((await decide(t, user.token, provider.name, 'approve')).statusCode).toBe(404);
    expect((await failure(t.providers.remove(provider.hash))).code).toBe('provider_not_found');
  });
});
