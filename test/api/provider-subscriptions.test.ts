// Provider-scoped subscriptions /api/v1/providers/{user_id}/subs: the same routes as /api/v1/subs, in the provider's scope (docs/providers.md, Managing the user's subscriptions).
import { expect, it } from 'vitest';
import { describeEachDatabase, TEST_BASE_URL, useTestApp } from '../support/harness.js';
import { approvedPair, decide, PROVIDERS, requestAccess } from '../support/factories.js';
import { expectError, expectStatus } from '../support/expect.js';

const config = (n: number): string => `trojan://secret@node${n}.example.org:443`;

interface Subscription {
  token: string;
  name: string;
  provider_name: string | null;
  sources: Array<{ id: string; data: string; comment: string | null }>;
}

describeEachDatabase('provider-scoped subscriptions', (kind) => {
  const t = useTestApp(kind, { MAX_SUBSCRIPTIONS_PER_USER: '2' });

  it('full CRUD and sources through the provider mount; provider_name is set', async () => {
    const { provider, subs } = await approvedPair(t);
    const token = provider.token;
    const created = expectStatus(
      await t.call('POST', subs, { token, body: { name: 'Managed', description: 'by bot', sources: [config(1)] } }),
      201,
    ).json<Subscription>();
    expect(created).toMatchObject({ name: 'Managed', provider_name: provider.name, description: 'by bot' });
    const url = `${subs}/${created.token}`;

    expect(
      expectStatus(await t.call('GET', subs, { token }), 200)
        .json<Subscription[]>()
        .map((s) => s.token),
    ).toEqual([created.token]);
    expect(expectStatus(await t.call('GET', url, { token }), 200).json<Subscription>().sources).toHaveLength(1);
    expect(
      expectStatus(await t.call('PATCH', url, { token, body: { name: 'Renamed' } }), 200).json<Subscription>().name,
    ).toBe('Renamed');

    const added = expectStatus(
      await t.call('POST', `${url}/sources`, { token, body: { sources: [config(2), config(3)] } }),
      200,
    ).json<Subscription>();
    expect(added.sources).toHaveLength(3);
    const removed = expectStatus(
      await t.call('DELETE', `${url}/sources`, { token, body: { source_ids: [added.sources[0]!.id] } }),
      200,
    ).json<Subscription>();
    expect(removed.sources).toHaveLength(2);
    const replaced = expectStatus(
      await t.call('PUT', `${url}/sources`, { token, body: { sources: [config(4)] } }),
      200,
    ).json<Subscription>();
    expect(replaced.sources.map((s) => s.data)).toEqual([config(4)]);

    const configId = replaced.sources[0]!.id;
    expectStatus(
      await t.call('PATCH', `${url}/config`, { token, body: { config_id: configId, comment: 'Node four' } }),
      204,
    );
    const comments = expectStatus(
      await t.call('PATCH', `${url}/comments`, { token, body: { config_id: configId, comment: 'Four' } }),
      204,
    );
    expect(comments.headers['link']).toBe(`<${subs}/${created.token}/config>; rel="successor-version"`);
    expect(comments.headers['deprecation']).toMatch(/^@\d+$/);

    const refreshed = expectStatus(await t.call('POST', `${url}/refresh`, { token }), 200).json();
    expect(refreshed).toMatchObject({ refreshed: 0, failed: 0, skipped: 1, total: 1 });

    const link = await t.call('GET', `/api/v1/sub/${created.token}?format=plain`);
    expect(link.statusCode).toBe(200);
    expect(link.body).toBe(`${config(4)}#Four`);

    expectStatus(await t.call('DELETE', url, { token }), 204);
    expectError(await t.call('GET', url, { token }), 404, 'subscription_not_found');
  });

  it('the limit and name uniqueness are per scope', async () => {
    const { user, provider, subs } = await approvedPair(t);
    for (const name of ['One', 'Two']) {
      expectStatus(await t.call('POST', '/api/v1/subs', { token: user.token, body: { name } }), 201);
    }
    // The user's own scope is full, the provider's is empty; the same names are free there.
    expectError(
      await t.call('POST', '/api/v1/subs', { token: user.token, body: { name: 'Three' } }),
      403,
      'subscription_limit_reached',
    );
    for (const name of ['One', 'Two']) {
      expectStatus(await t.call('POST', subs, { token: provider.token, body: { name } }), 201);
    }
    expectError(
      await t.call('POST', subs, { token: provider.token, body: { name: 'Three' } }),
      403,
      'subscription_limit_reached',
    );
    const listed = expectStatus(await t.call('GET', subs, { token: provider.token }), 200).json<Subscription[]>();
    expect(listed.map((s) => [s.name, s.provider_name])).toEqual([
      ['One', provider.name],
      ['Two', provider.name],
    ]);
    // The user's list holds both scopes.
    expect(
      expectStatus(await t.call('GET', '/api/v1/subs', { token: user.token }), 200).json<Subscription[]>(),
    ).toHaveLength(4);

    const other = await t.newProvider();
    await requestAccess(t, other, user.userId);
    expectStatus(await decide(t, user.token, other.name, 'approve'), 200);
    const otherSubs = `${PROVIDERS}/${user.userId}/subs`;
    expectStatus(await t.call('POST', otherSubs, { token: other.token, body: { name: 'One' } }), 201);
    expectError(await t.call('POST', otherSubs, { token: other.token, body: { name: 'One' } }), 409, 'name_exists');
  });

  it('name_exists inside one provider scope, on create and rename', async () => {
    const { provider, subs } = await approvedPair(t);
    const first = expectStatus(
      await t.call('POST', subs, { token: provider.token, body: { name: 'A' } }),
      201,
    ).json<Subscription>();
    expectStatus(await t.call('POST', subs, { token: provider.token, body: { name: 'B' } }), 201);
    expectError(await t.call('POST', subs, { token: provider.token, body: { name: 'A' } }), 409, 'name_exists');
    expectError(
      await t.call('PATCH', `${subs}/${first.token}`, { token: provider.token, body: { name: 'B' } }),
      409,
      'name_exists',
    );
  });

  it('a provider without an approved connection gets 403 connection_not_approved', async () => {
    const user = await t.newUser();
    const provider = await t.newProvider();
    const subs = `${PROVIDERS}/${user.userId}/subs`;
    expectError(await t.call('GET', subs, { token: provider.token }), 403, 'connection_not_approved');
    await requestAccess(t, provider, user.userId);
    expectError(
      await t.call('POST', subs, { token: provider.token, body: { name: 'x' } }),
      403,
      'connection_not_approved',
    );
    expectStatus(await decide(t, user.token, provider.name, 'approve'), 200);
    const sub = expectStatus(
      await t.call('POST', subs, { token: provider.token, body: { name: 'x' } }),
      201,
    ).json<Subscription>();
    expectStatus(await t.call('DELETE', `${PROVIDERS}/${user.userId}`, { token: provider.token }), 200);
    for (const [method, url] of [
      ['GET', subs],
      ['GET', `${subs}/${sub.token}`],
      ['DELETE', `${subs}/${sub.token}`],
    ] as const) {
      expectError(await t.call(method, url, { token: provider.token }), 403, 'connection_not_approved');
    }
    expectError(
      await t.call('GET', `${PROVIDERS}/999999999999/subs`, { token: provider.token }),
      403,
      'connection_not_approved',
    );
  });

  it('auth on the provider mount: 401 without or with a user token, 400 for a bad user_id', async () => {
    const { user, subs } = await approvedPair(t);
    expectError(await t.call('GET', subs), 401, 'missing_token');
    expectError(await t.call('GET', subs, { token: user.token }), 401, 'invalid_token');
    const provider = await t.newProvider();
    for (const id of ['0', 'abc', '-3']) {
      expectError(await t.call('GET', `${PROVIDERS}/${id}/subs`, { token: provider.token }), 400, 'validation_failed');
    }
  });

  it("403 forbidden when a provider touches the user's own or another provider's subscriptions", async () => {
    const { user, provider, subs } = await approvedPair(t);
    const own = expectStatus(
      await t.call('POST', '/api/v1/subs', { token: user.token, body: { name: 'Mine' } }),
      201,
    ).json<Subscription>();
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['PATCH', '', { name: 'Taken' }],
      ['DELETE', '', undefined],
      ['POST', '/sources', { sources: [config(9)] }],
      ['POST', '/refresh', undefined],
    ] as const) {
      expectError(
        await t.call(method, `${subs}/${own.token}${suffix}`, { token: provider.token, body }),
        403,
        'forbidden',
      );
    }
    expect(expectStatus(await t.call('GET', subs, { token: provider.token }), 200).json()).toEqual([]);
    // A second approved provider does not see the first one's subscriptions.
    const managed = expectStatus(
      await t.call('POST', subs, { token: provider.token, body: { name: 'P1' } }),
      201,
    ).json<Subscription>();
    const other = await t.newProvider();
    await requestAccess(t, other, user.userId);
    expectStatus(await decide(t, user.token, other.name, 'approve'), 200);
    expectError(await t.call('GET', `${subs}/${managed.token}`, { token: other.token }), 403, 'forbidden');
    // Another user's subscription through this user's mount is forbidden too.
    const stranger = await t.newUser();
    const theirs = expectStatus(
      await t.call('POST', '/api/v1/subs', { token: stranger.token, body: { name: 'S' } }),
      201,
    ).json<Subscription>();
    expectError(await t.call('GET', `${subs}/${theirs.token}`, { token: provider.token }), 403, 'forbidden');
  });

  it('managed_by_provider while approved; the user manages them after revoke; the link keeps working', async () => {
    const { user, provider, subs } = await approvedPair(t);
    const sub = expectStatus(
      await t.call('POST', subs, { token: provider.token, body: { name: 'Bot', sources: [config(1)] } }),
      201,
    ).json<Subscription>();
    const mine = `/api/v1/subs/${sub.token}`;
    // Reading is allowed; every change is refused.
    expect(expectStatus(await t.call('GET', mine, { token: user.token }), 200).json()).toMatchObject({
      provider_name: provider.name,
    });
    const changes = [
      ['PATCH', '', { name: 'Mine now' }],
      ['DELETE', '', undefined],
      ['POST', '/sources', { sources: [config(2)] }],
      ['PUT', '/sources', { sources: [] }],
      ['DELETE', '/sources', { source_ids: [sub.sources[0]!.id] }],
      ['PATCH', '/config', { config_id: sub.sources[0]!.id, comment: 'x' }],
      ['PATCH', '/comments', { config_id: sub.sources[0]!.id, comment: 'x' }],
    ] as const;
    for (const [method, suffix, body] of changes) {
      const error = expectError(
        await t.call(method, `${mine}${suffix}`, { token: user.token, body }),
        403,
        'managed_by_provider',
      );
      expect(error.details).toEqual({ provider_name: provider.name });
    }
    expectStatus(await decide(t, user.token, provider.name, 'revoke'), 204);
    expect((await t.call('GET', `/api/v1/sub/${sub.token}?format=plain`)).body).toBe(`${config(1)}#node1.example.org`);
    expectStatus(await t.call('PATCH', mine, { token: user.token, body: { name: 'Mine now' } }), 200);
    expectStatus(await t.call('POST', `${mine}/sources`, { token: user.token, body: { sources: [config(2)] } }), 200);
    expect((await t.call('GET', `/sub/${sub.token}?format=plain`)).body.split('\n')).toHaveLength(2);
    expectStatus(await t.call('DELETE', mine, { token: user.token }), 204);
  });

  it("deleting the provider deletes the subscriptions it manages (and their links), not the user's own", async () => {
    const { user, provider, subs } = await approvedPair(t);
    const managed = expectStatus(
      await t.call('POST', subs, { token: provider.token, body: { name: 'Bot', sources: [config(5)] } }),
      201,
    ).json<Subscription>();
    const own = expectStatus(
      await t.call('POST', '/api/v1/subs', {
        token: user.token,
        body: { name: 'Own', sources: [`${TEST_BASE_URL}/api/v1/sub/${managed.token}`] },
      }),
      201,
    ).json<Subscription>();
    expect((await t.call('GET', `/sub/${managed.token}?format=plain`)).statusCode).toBe(200);
    expect((await t.call('GET', `/sub/${own.token}?format=plain`)).body).toContain('node5');

    await t.providers.remove(provider.hash);
    expectError(
      await t.call('GET', `/api/v1/subs/${managed.token}`, { token: user.token }),
      404,
      'subscription_not_found',
    );
    expectError(await t.call('GET', `/sub/${managed.token}`), 404, 'subscription_not_found');
    expect((await t.call('GET', `/sub/${own.token}?format=plain`)).body).not.toContain('node5');
    expect(
      expectStatus(await t.call('GET', '/api/v1/subs', { token: user.token }), 200)
        .json<Subscription[]>()
        .map((s) => s.name),
    ).toEqual(['Own']);
    expect(expectStatus(await t.call('GET', '/api/v1/me/providers', { token: user.token }), 200).json()).toEqual({
      connections: [],
    });
    expectError(await t.call('GET', subs, { token: provider.token }), 401, 'invalid_token');
  });

  it('documents the provider mount and the new endpoints in OpenAPI', async () => {
    const doc = expectStatus(await t.call('GET', '/openapi.json'), 200).json<{
      paths: Record<
        string,
        Record<string, { tags: string[]; description: string; parameters?: Array<{ name: string }> }>
      >;
    }>();
    const scoped = doc.paths['/api/v1/providers/{user_id}/subs/{token}/sources'];
    expect(scoped?.['post']?.tags).toEqual(['Providers']);
    expect(scoped?.['post']?.parameters?.map((p) => p.name).sort()).toEqual(['token', 'user_id']);
    for (const [path, method, tag] of [
      ['/api/v1/providers/{user_id}', 'post', 'Providers'],
      ['/api/v1/providers/{user_id}', 'get', 'Providers'],
      ['/api/v1/providers/{user_id}', 'delete', 'Providers'],
      ['/api/v1/me', 'get', 'Me'],
      ['/api/v1/me/providers', 'get', 'Me'],
      ['/api/v1/me/providers/{provider_name}', 'get', 'Me'],
      ['/api/v1/me/providers/{provider_name}/approve', 'post', 'Me'],
      ['/api/v1/me/providers/{provider_name}/reject', 'post', 'Me'],
      ['/api/v1/me/providers/{provider_name}/revoke', 'post', 'Me'],
    ] as const) {
      const operation = doc.paths[path]?.[method];
      expect(operation?.tags, `${method} ${path}`).toEqual([tag]);
      expect(operation?.description.length).toBeGreaterThan(0);
    }
  });
});
