// POST /api/v1/me/refresh-token (docs/api.md "User self-service"; docs/security.md "Browser sessions"): a user
// re-issues their own API token with API-Token or the session cookie; every session ends, the calling browser's
// gets a fresh one; the event and the audit entry name the user and never the token.
import { expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDatabase, useTestApp, type TestApp, TEST_BASE_URL } from '../support/harness.js';
import { ME } from '../support/factories.js';
import { expectError, expectStatus } from '../support/expect.js';
import { hashToken } from '../../src/shared/tokens.js';
import { AppError } from '../../src/http/errors.js';

const REFRESH = `${ME}/refresh-token`;
const SESSION = '/api/v1/session';
const COOKIE_RE = /^subweave_session=([A-Za-z0-9_-]{43}); Path=\/; HttpOnly; SameSite=Strict; Max-Age=604800$/;

const withCookie = (cookie: string, extra: Record<string, string> = {}) => ({
  headers: { cookie: `subweave_session=${cookie}`, ...extra },
});
const sameSite = (cookie: string) => withCookie(cookie, { origin: TEST_BASE_URL });

async function signIn(t: TestApp, token: string): Promise<string> {
  const response = expectStatus(await t.call('POST', SESSION, { body: { token } }), 200);
  return COOKIE_RE.exec(String(response.headers['set-cookie']))![1]!;
}

/** The new token of a 200 answer, after checking it is the only field and the answer may not be stored. */
function newTokenOf(response: LightMyRequestResponse): string {
  expectStatus(response, 200);
  expect(response.headers['cache-control']).toBe('no-store');
  const body = response.json<{ api_token: string }>();
  expect(Object.keys(body)).toEqual(['api_token']);
  expect(body.api_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return body.api_token;
}

async function tokenHashOf(t: TestApp, userId: number): Promise<string> {
  const row = await t.database.db
    .selectFrom('users')
    .select('token_hash')
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.token_hash;
}

async function sessionHashes(t: TestApp, userId: number): Promise<string[]> {
  const rows = await t.database.db.selectFrom('sessions').select('id_hash').where('user_id', '=', userId).execute();
  return rows.map((row) => row.id_hash);
}

describeEachDatabase('POST /me/refresh-token', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'me-token-admin-of-at-least-32-characters' });

  it('with API-Token: a new token, the old one 401, every session ended, no cookie set', async () => {
    const user = await t.newUser();
    const browser = await signIn(t, user.token);
    const response = await t.call('POST', REFRESH, { token: user.token });
    const token = newTokenOf(response);
    expect(token).not.toBe(user.token);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(await tokenHashOf(t, user.userId)).toBe(hashToken(token));

    expectError(await t.call('GET', ME, { token: user.token }), 401, 'invalid_token');
    expect(expectStatus(await t.call('GET', ME, { token }), 200).json()).toEqual({
      user_id: user.userId,
      is_active: true,
    });
    expectError(await t.call('GET', SESSION, withCookie(browser)), 401, 'invalid_token');
    expect(await sessionHashes(t, user.userId)).toEqual([]);
    // The new token refreshes again; the old one cannot.
    expectError(await t.call('POST', REFRESH, { token: user.token }), 401, 'invalid_token');
    newTokenOf(await t.call('POST', REFRESH, { token }));
  });

  it('with the session cookie and this Origin: a fresh cookie for the caller, every other session ended', async () => {
    const user = await t.newUser();
    const bystander = await t.newUser();
    const kept = await signIn(t, bystander.token);
    const caller = await signIn(t, user.token);
    const otherBrowser = await signIn(t, user.token);

    const response = await t.call('POST', REFRESH, sameSite(caller));
    const token = newTokenOf(response);
    const setCookie = response.headers['set-cookie'];
    expect(typeof setCookie, String(setCookie)).toBe('string');
    const fresh = COOKIE_RE.exec(String(setCookie))?.[1];
    expect(fresh, String(setCookie)).toBeDefined();
    expect(fresh).not.toBe(caller);

    expect(await sessionHashes(t, user.userId)).toEqual([hashToken(fresh!)]);
    expectError(await t.call('GET', ME, sameSite(caller)), 401, 'invalid_token');
    expectError(await t.call('GET', ME, withCookie(otherBrowser)), 401, 'invalid_token');
    expect(expectStatus(await t.call('GET', SESSION, withCookie(fresh!)), 200).json()).toMatchObject({
      user_id: user.userId,
    });
    // The dashboard keeps working, writes included.
    expectStatus(await t.call('POST', '/api/v1/subs', { ...sameSite(fresh!), body: { name: 'kept' } }), 201);
    expectError(await t.call('GET', ME, { token: user.token }), 401, 'invalid_token');
    expectStatus(await t.call('GET', ME, { token }), 200);
    expectStatus(await t.call('GET', SESSION, withCookie(kept)), 200);
  });

  it('a session due for renewal: only the fresh cookie is sent, never the ended one again', async () => {
    const user = await t.newUser();
    const caller = await signIn(t, user.token);
    await t.database.db
      .updateTable('sessions')
      .set({ last_seen: new Date(Date.now() - 2 * 3600_000).toISOString() })
      .where('id_hash', '=', hashToken(caller))
      .execute();
    const response = await t.call('POST', REFRESH, sameSite(caller));
    newTokenOf(response);
    const setCookie = String(response.headers['set-cookie']);
    const fresh = COOKIE_RE.exec(setCookie)?.[1];
    expect(fresh, setCookie).toBeDefined();
    expect(setCookie).not.toContain(caller);
    expectStatus(await t.call('GET', SESSION, withCookie(fresh!)), 200);
  });

  it('with the cookie and a foreign, missing or null Origin: 403 bad_origin, token and session unchanged', async () => {
    const user = await t.newUser();
    const cookie = await signIn(t, user.token);
    const before = await tokenHashOf(t, user.userId);
    for (const origin of ['https://evil.example', undefined, 'null']) {
      const refused = await t.call('POST', REFRESH, withCookie(cookie, origin === undefined ? {} : { origin }));
      expectError(refused, 403, 'bad_origin');
      expect(refused.headers['set-cookie']).toBeUndefined();
    }
    expect(await tokenHashOf(t, user.userId)).toBe(before);
    expectStatus(await t.call('GET', ME, { token: user.token }), 200);
    expectStatus(await t.call('GET', SESSION, withCookie(cookie)), 200);
  });

  it('API-Token wins over a cookie: no cookie set, and that browser session ends too', async () => {
    const user = await t.newUser();
    const cookie = await signIn(t, user.token);
    const response = await t.call('POST', REFRESH, { token: user.token, ...withCookie(cookie) });
    newTokenOf(response);
    expect(response.headers['set-cookie']).toBeUndefined();
    expectError(await t.call('GET', SESSION, withCookie(cookie)), 401, 'invalid_token');
  });

  it('writes user.token_refreshed and an audit entry with the user as actor, neither holding a token', async () => {
    const user = await t.newUser();
    const cookie = await signIn(t, user.token);
    const last = await t.database.db
      .selectFrom('events')
      .select((eb) => eb.fn.max('seq').as('max'))
      .executeTakeFirst();
    const response = await t.call('POST', REFRESH, { ...sameSite(cookie), ip: '203.0.113.40' });
    const token = newTokenOf(response);
    const fresh = COOKIE_RE.exec(String(response.headers['set-cookie']))![1]!;

    const events = await t.database.db
      .selectFrom('events')
      .select(['type', 'actor_kind', 'actor_id', 'user_id', 'data'])
      .where('seq', '>', Number(last?.max ?? 0))
      .execute();
    expect(events.map((e) => [e.type, e.actor_kind, e.actor_id, e.user_id])).toEqual([
      ['user.token_refreshed', 'user', String(user.userId), user.userId],
    ]);
    const entries = expectStatus(
      await t.admin('GET', `/audit?target=user:${user.userId}&action=user.refresh_token`),
      200,
    ).json<{ entries: Array<Record<string, unknown>> }>().entries;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { kind: 'user', id: String(user.userId) },
      client_ip: '203.0.113.40',
      request_id: response.headers['x-request-id'],
      action: 'user.refresh_token',
      target: `user:${user.userId}`,
    });
    // The user sees it in their own log, with their own address.
    const mine = expectStatus(await t.call('GET', `${ME}/audit`, { token }), 200).json<{
      entries: Array<Record<string, unknown>>;
    }>().entries;
    expect(mine.filter((entry) => entry['action'] === 'user.refresh_token')).toEqual(entries);
    for (const written of [JSON.stringify(events), JSON.stringify(entries)]) {
      for (const secret of [token, user.token, cookie, fresh]) expect(written).not.toContain(secret);
      expect(written).not.toContain('api_token');
    }
  });

  it('a disabled user is refused (403 account_disabled) and nothing changes; the service refuses too', async () => {
    const user = await t.newUser();
    const before = await tokenHashOf(t, user.userId);
    expectStatus(await t.admin('PATCH', `/users/${user.userId}`, { is_active: false }), 200);
    const last = await t.database.db
      .selectFrom('events')
      .select((eb) => eb.fn.max('seq').as('max'))
      .executeTakeFirst();
    expectError(await t.call('POST', REFRESH, { token: user.token }), 403, 'account_disabled');
    // A disable landing between authentication and the write is caught inside the write.
    const raced = await t.context.users.refreshOwnToken(user.userId, true).catch((error: unknown) => error);
    expect(raced).toBeInstanceOf(AppError);
    expect((raced as AppError).code).toBe('account_disabled');
    expect(await tokenHashOf(t, user.userId)).toBe(before);
    expect(await sessionHashes(t, user.userId)).toEqual([]);
    const events = await t.database.db
      .selectFrom('events')
      .select('type')
      .where('seq', '>', Number(last?.max ?? 0))
      .where('user_id', '=', user.userId)
      .execute();
    expect(events).toEqual([]);
  });

  it('without a credential 401 missing_token; an unknown or a provider token 401 invalid_token', async () => {
    expectError(await t.call('POST', REFRESH), 401, 'missing_token');
    expectError(await t.call('POST', REFRESH, { token: 'Z'.repeat(43) }), 401, 'invalid_token');
    const provider = await t.newProvider();
    expectError(await t.call('POST', REFRESH, { token: provider.token }), 401, 'invalid_token');
    expectError(await t.call('POST', REFRESH, sameSite('Z'.repeat(43))), 401, 'invalid_token');
  });

  it('is in the OpenAPI document: user security (API token or cookie), 200 {api_token}', async () => {
    const doc = expectStatus(await t.call('GET', '/openapi.json'), 200).json<{
      paths: Record<string, Record<string, { security: Array<Record<string, string[]>>; responses: object }>>;
    }>();
    const operation = doc.paths['/api/v1/me/refresh-token']?.['post'];
    expect(operation?.security.flatMap((s) => Object.keys(s))).toEqual(['apiToken', 'sessionCookie']);
    expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['200', '401', '403', '429']));
    expect(operation?.responses).toMatchObject({
      200: { content: { 'application/json': { schema: { properties: { api_token: { type: 'string' } } } } } },
    });
  });
});

describeEachDatabase('POST /me/refresh-token under the user rate limit', (kind) => {
  const t = useTestApp(kind, { RATE_LIMIT_API_PER_MIN: '2', AUTO_BAN_VIOLATIONS: '0' });

  it('spends the caller budget like every user call: the third call in a minute is 429', async () => {
    const user = await t.newUser();
    const first = newTokenOf(await t.call('POST', REFRESH, { token: user.token }));
    const second = newTokenOf(await t.call('POST', REFRESH, { token: first }));
    expectError(await t.call('POST', REFRESH, { token: second }), 429, 'rate_limited');
  });
});
