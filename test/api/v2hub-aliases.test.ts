// The original v2hub API's paths (docs/migrating-from-v2hub.md): each alias answers as its counterpart, plus Deprecation and Link headers; provider revokes add `detail`; 429 bodies carry `retry_after`.
import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDatabase, testDatabaseKinds, useTestApp, type TestApp } from '../support/harness.js';
import { CONNECTION_DATES, decide, freshIp, freshUserId, ME, PROVIDERS, requestAccess } from '../support/factories.js';
import { expectError, expectStatus } from '../support/expect.js';
import { V2HUB_PATHS_DEPRECATED_AT } from '../../src/modules/connections/me.routes.js';

type Method = 'GET' | 'POST' | 'DELETE';
type Call = [Method, string];

/** The user-side aliases and their counterparts, for a provider name. */
const USER_ROUTES: Array<{ alias: (name: string) => Call; counterpart: (name: string) => Call }> = [
  { alias: () => ['GET', `${ME}/connections`], counterpart: () => ['GET', `${ME}/providers`] },
  { alias: (n) => ['GET', `${ME}/connections/${n}`], counterpart: (n) => ['GET', `${ME}/providers/${n}`] },
  {
    alias: (n) => ['POST', `${ME}/connections/${n}/approve`],
    counterpart: (n) => ['POST', `${ME}/providers/${n}/approve`],
  },
  {
    alias: (n) => ['POST', `${ME}/connections/${n}/reject`],
    counterpart: (n) => ['POST', `${ME}/providers/${n}/reject`],
  },
  { alias: (n) => ['DELETE', `${ME}/connections/${n}`], counterpart: (n) => ['POST', `${ME}/providers/${n}/revoke`] },
];

function expectDeprecated(response: LightMyRequestResponse, successor: string): void {
  expect(response.headers['deprecation'], response.body).toBe(`@${V2HUB_PATHS_DEPRECATED_AT}`);
  expect(response.headers['link']).toBe(`<${successor}>; rel="successor-version"`);
}

/** Same status, content type and body (an empty body stays empty); the counterpart carries no deprecation. */
/** An answer's body with each time replaced by whether it is one: the twins' records were made moments apart. */
function timeless(answer: LightMyRequestResponse): unknown {
  if (answer.body === '') return '';
  return JSON.parse(answer.body, (key, value: unknown) =>
    key.endsWith('_at') && typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? 'a time' : value,
  );
}

function expectSameAnswer(alias: LightMyRequestResponse, counterpart: LightMyRequestResponse): void {
  expect(alias.statusCode, alias.body).toBe(counterpart.statusCode);
  expect(alias.headers['content-type']).toBe(counterpart.headers['content-type']);
  expect(timeless(alias)).toEqual(timeless(counterpart));
  expect(counterpart.headers['deprecation']).toBeUndefined();
  expect(counterpart.headers['link']).toBeUndefined();
}

/** Two users in the same state with one provider: one acts through the counterpart, the other through the alias. */
async function twins(t: TestApp, state: 'none' | 'pending' | 'approved' | 'revoked') {
  const provider = await t.newProvider();
  const users = [await t.newUser(), await t.newUser()];
  for (const user of users) {
    if (state === 'none') continue;
    await requestAccess(t, provider, user.userId);
    if (state !== 'pending') expectStatus(await decide(t, user.token, provider.name, 'approve'), 200);
    if (state === 'revoked') expectStatus(await decide(t, user.token, provider.name, 'revoke'), 204);
  }
  return { provider, viaCounterpart: users[0]!, viaAlias: users[1]! };
}

describeEachDatabase('v2hub aliases', (kind) => {
  const t = useTestApp(kind, { MAX_PROVIDERS_PER_USER: '5' });

  for (const state of ['none', 'pending', 'approved', 'revoked'] as const) {
    it(`user aliases answer as their counterparts with a ${state} connection, plus the two headers`, async () => {
      for (const route of USER_ROUTES) {
        const { provider, viaCounterpart, viaAlias } = await twins(t, state);
        const [method, path] = route.counterpart(provider.name);
        const counterpart = await t.call(method, path, { token: viaCounterpart.token });
        const alias = await t.call(...route.alias(provider.name), { token: viaAlias.token });
        expectSameAnswer(alias, counterpart);
        expectDeprecated(alias, path);
        // And both users end in the same state.
        const seen = await Promise.all(
          [viaCounterpart, viaAlias].map((u) => t.call('GET', `${ME}/providers/${provider.name}`, { token: u.token })),
        );
        expectSameAnswer(seen[1]!, seen[0]!);
      }
    });
  }

  it('pins the answers the v2hub SDK parses: ConnectionResponse, ConnectionsResponse, 204 on DELETE', async () => {
    const { provider, viaAlias: user } = await twins(t, 'pending');
    const connection = {
      provider_name: provider.name,
      provider_url: `https://${provider.name}.example.com`,
      is_authorized: false,
      status: 'pending',
      ...CONNECTION_DATES,
    };
    expect(expectStatus(await t.call('GET', `${ME}/connections`, { token: user.token }), 200).json()).toEqual({
      connections: [connection],
    });
    const approved = await t.call('POST', `${ME}/connections/${provider.name}/approve`, { token: user.token });
    expect(expectStatus(approved, 200).json()).toEqual({ ...connection, is_authorized: true, status: 'approved' });
    const revoked = await t.call('DELETE', `${ME}/connections/${provider.name}`, { token: user.token });
    expect(expectStatus(revoked, 204).body).toBe('');
    expectDeprecated(revoked, `${ME}/providers/${provider.name}/revoke`);
  });

  it('user alias errors match: unknown provider 404, wrong state 409, no token 401, a provider token 401', async () => {
    const { provider, viaCounterpart, viaAlias } = await twins(t, 'approved');
    const cases: Array<{ route: (typeof USER_ROUTES)[number]; name: string; token?: string; code: string }> = [];
    for (const route of USER_ROUTES.slice(1))
      cases.push({ route, name: 'no-such-provider', code: 'connection_not_found' });
    for (const route of USER_ROUTES.slice(2, 4))
      cases.push({ route, name: provider.name, code: 'connection_not_pending' });
    for (const route of USER_ROUTES) cases.push({ route, name: provider.name, token: '', code: 'missing_token' });
    for (const route of USER_ROUTES) {
      cases.push({ route, name: provider.name, token: provider.token, code: 'invalid_token' });
    }
    for (const { route, name, token, code } of cases) {
      const [method, path] = route.counterpart(name);
      const counterpart = await t.call(method, path, { token: token ?? viaCounterpart.token });
      const alias = await t.call(...route.alias(name), { token: token ?? viaAlias.token });
      const label = `${route.alias(name).join(' ')} (${code})`;
      expect(alias.statusCode, label).toBeGreaterThanOrEqual(400);
      expect((alias.json() as { error: string }).error, label).toBe(code);
      expectSameAnswer(alias, counterpart);
      expectDeprecated(alias, path);
    }
  });

  it('a percent-encoded provider name is echoed encoded in the successor link', async () => {
    const user = await t.newUser();
    const alias = await t.call('POST', `${ME}/connections/a%20b%2Fc/approve`, { token: user.token });
    expectError(alias, 404, 'connection_not_found');
    expectDeprecated(alias, `${ME}/providers/a%20b%2Fc/approve`);
  });

  it('POST /providers/{user_id}/revoke answers as DELETE: 200 {user_id, status: revoked, detail}', async () => {
    for (const state of ['pending', 'approved', 'revoked'] as const) {
      const { provider, viaCounterpart, viaAlias } = await twins(t, state);
      const counterpart = await t.call('DELETE', `${PROVIDERS}/${viaCounterpart.userId}`, { token: provider.token });
      const alias = await t.call('POST', `${PROVIDERS}/${viaAlias.userId}/revoke`, { token: provider.token });
      for (const [response, user] of [
        [counterpart, viaCounterpart],
        [alias, viaAlias],
      ] as const) {
        expect(expectStatus(response, 200).json()).toEqual({
          user_id: user.userId,
          status: 'revoked',
          detail: 'Provider connection revoked',
        });
        const seen = await t.call('GET', `${ME}/providers/${provider.name}`, { token: user.token });
        expect(expectStatus(seen, 200).json()).toMatchObject({ status: 'revoked', is_authorized: false });
      }
      expectDeprecated(alias, `${PROVIDERS}/${viaAlias.userId}`);
      expect(counterpart.headers['deprecation']).toBeUndefined();
    }
  });

  it('POST /providers/{user_id}/revoke errors match DELETE: no record 404, bad id 400, no or a user token 401', async () => {
    const provider = await t.newProvider();
    const user = await t.newUser();
    const cases: Array<{ id: string; token?: string; status: number; code: string }> = [
      { id: String(user.userId), status: 404, code: 'connection_not_found' },
      { id: String(freshUserId()), status: 404, code: 'connection_not_found' },
      { id: 'abc', status: 400, code: 'validation_failed' },
      { id: '0', status: 400, code: 'validation_failed' },
      { id: String(user.userId), token: '', status: 401, code: 'missing_token' },
      { id: String(user.userId), token: user.token, status: 401, code: 'invalid_token' },
    ];
    for (const { id, token, status, code } of cases) {
      const options = { token: token ?? provider.token };
      const counterpart = await t.call('DELETE', `${PROVIDERS}/${id}`, options);
      const alias = await t.call('POST', `${PROVIDERS}/${id}/revoke`, options);
      expectError(alias, status, code as never, `${id} ${code}`);
      expectSameAnswer(alias, counterpart);
      expectDeprecated(alias, `${PROVIDERS}/${id}`);
    }
  });

  it("the OpenAPI document lists every alias as deprecated with its counterpart's responses", async () => {
    const doc = expectStatus(await t.call('GET', '/openapi.json'), 200).json<{
      paths: Record<string, Record<string, { deprecated?: boolean; responses: Record<string, unknown> }>>;
    }>();
    const pairs: Array<[string, string, string, string]> = [
      ['get', '/api/v1/me/connections', 'get', '/api/v1/me/providers'],
      ['get', '/api/v1/me/connections/{provider_name}', 'get', '/api/v1/me/providers/{provider_name}'],
      [
        'post',
        '/api/v1/me/connections/{provider_name}/approve',
        'post',
        '/api/v1/me/providers/{provider_name}/approve',
      ],
      ['post', '/api/v1/me/connections/{provider_name}/reject', 'post', '/api/v1/me/providers/{provider_name}/reject'],
      ['delete', '/api/v1/me/connections/{provider_name}', 'post', '/api/v1/me/providers/{provider_name}/revoke'],
      ['post', '/api/v1/providers/{user_id}/revoke', 'delete', '/api/v1/providers/{user_id}'],
    ];
    for (const [aliasMethod, aliasPath, method, path] of pairs) {
      const alias = doc.paths[aliasPath]?.[aliasMethod];
      const counterpart = doc.paths[path]?.[method];
      expect(alias?.deprecated, aliasPath).toBe(true);
      expect(counterpart?.deprecated, path).toBeUndefined();
      expect(alias?.responses).toEqual(counterpart?.responses);
    }
    const revoke = JSON.stringify(doc.paths['/api/v1/providers/{user_id}']?.['delete']?.responses['200']);
    expect(revoke).toContain('Provider connection revoked');
    const limited = JSON.stringify(doc.paths['/api/v1/me/connections']?.['get']?.responses['429']);
    expect(limited).toContain('retry_after');
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`retry_after on 429 [${kind}]`, () => {
    const t = useTestApp(kind, {
      RATE_LIMIT_API_PER_MIN: '2',
      RATE_LIMIT_PUBLIC_PER_MIN: '1',
      RATE_LIMIT_ANON_PER_MIN: '1',
      AUTO_BAN_VIOLATIONS: '0',
    });

    const expectRetryAfter = (response: LightMyRequestResponse) => {
      const body = expectError(response, 429, 'rate_limited');
      const seconds = Number(response.headers['retry-after']);
      expect(body.retry_after).toBe(seconds);
      expect(body.details).toMatchObject({ retry_after: seconds });
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(60);
    };

    it('an alias spends the same budget as its counterpart; its 429 carries retry_after and the headers', async () => {
      const user = await t.newUser();
      const ip = freshIp();
      expectStatus(await t.call('GET', `${ME}/providers`, { token: user.token, ip }), 200);
      expectStatus(await t.call('GET', `${ME}/connections`, { token: user.token, ip }), 200);
      const limited = await t.call('GET', `${ME}/connections`, { token: user.token, ip });
      expectRetryAfter(limited);
      expectDeprecated(limited, `${ME}/providers`);
      expectRetryAfter(await t.call('GET', `${ME}/providers`, { token: user.token, ip }));
    });

    it('provider alias, the public link, anonymous and undecodable requests: every 429 carries retry_after', async () => {
      const provider = await t.newProvider();
      const userId = freshUserId();
      for (let i = 0; i < 2; i++) await t.call('POST', `${PROVIDERS}/${userId}/revoke`, { token: provider.token });
      const limited = await t.call('POST', `${PROVIDERS}/${userId}/revoke`, { token: provider.token });
      expectRetryAfter(limited);
      expectDeprecated(limited, `${PROVIDERS}/${userId}`);

      const ip = freshIp();
      await t.call('GET', '/sub/no-such-token', { ip });
      expectRetryAfter(await t.call('GET', '/sub/no-such-token', { ip }));

      const anon = freshIp();
      await t.call('GET', '/no/such/route', { ip: anon });
      expectRetryAfter(await t.call('GET', '/no/such/route', { ip: anon }));
      expectRetryAfter(await t.call('GET', `${ME}/connections`, { ip: anon }));
      // A path the router cannot decode is refused before any route, by the same envelope builder.
      expectRetryAfter(await t.call('GET', '/api/v1/subs/%E0%A4%A', { ip: anon }));
    });
  });
}
