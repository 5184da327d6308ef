// docs/security.md (Disabled accounts): a provider cannot act for a user whose account an admin disabled.
import { expect, it } from 'vitest';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import { approvedPair, PROVIDERS } from '../support/factories.js';
import { expectError } from '../support/expect.js';

describeEachDatabase('edge: providers and disabled users', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'disabled-secret-of-at-least-32-characters' });

  it('refuses every provider-scoped subscription call for a disabled user with 403 account_disabled', async () => {
    const { provider, user } = await approvedPair(t);
    const { userId } = user;
    const base = `${PROVIDERS}/${userId}/subs`;
    const created = await t.call('POST', base, { token: provider.token, body: { name: 'managed' } });
    expect(created.statusCode, created.body).toBe(201);
    const sub = created.json<{ token: string }>().token;
    expect((await t.admin('PATCH', `/users/${userId}`, { is_active: false })).statusCode).toBe(200);

    // The attack: the provider kept creating and changing subscriptions for an account the admin had disabled.
    for (const [method, url, body] of [
      ['POST', base, { name: 'more' }],
      ['GET', base, undefined],
      ['GET', `${base}/${sub}`, undefined],
      ['PATCH', `${base}/${sub}`, { name: 'renamed' }],
      ['POST', `${base}/${sub}/sources`, { sources: ['trojan://pw@dis.example.com:443'] }],
      ['PUT', `${base}/${sub}/sources`, { sources: [] }],
      ['POST', `${base}/${sub}/refresh`, undefined],
      ['DELETE', `${base}/${sub}`, undefined],
    ] as const) {
      const res = await t.call(method, url, { token: provider.token, ...(body ? { body } : {}) });
      expect(expectError(res, 403, 'account_disabled').details, `${method} ${url}`).toEqual({ user_id: userId });
    }

    expect((await t.admin('PATCH', `/users/${userId}`, { is_active: true })).statusCode).toBe(200);
    expect((await t.call('GET', `${base}/${sub}`, { token: provider.token })).statusCode).toBe(200);
  });

  it('refuses a connection request for a disabled user', async () => {
    const provider = await t.newProvider();
    const { userId } = await t.newUser();
    expect((await t.admin('PATCH', `/users/${userId}`, { is_active: false })).statusCode).toBe(200);
    const res = await t.call('POST', `${PROVIDERS}/${userId}`, { token: provider.token });
    expect(expectError(res, 403, 'account_disabled').details).toEqual({ user_id: userId });
    expect((await t.admin('GET', `/users/${userId}/providers`)).json()).toEqual({ connections: [] });
  });
});
