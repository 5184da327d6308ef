// Browser sessions (docs/api.md "Sign in"; docs/security.md "Browser sessions"): signing in with the API token or a
// one-time sign-in link, the cookie's attributes, sliding expiry, sign-out, the Origin rule for unsafe requests, and
// sessions ended by token refresh, disabling and deletion.
import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDatabase, useTestApp, type TestApp, TEST_BASE_URL } from '../support/harness.js';
import { approvedPair, ME, PROVIDERS, requestAccess } from '../support/factories.js';
import { expectError, expectStatus } from '../support/expect.js';
import { hashToken } from '../../src/shared/tokens.js';

const SESSION = '/api/v1/session';
const SUBS = '/api/v1/subs';
const COOKIE_RE = /^subweave_session=([A-Za-z0-9_-]{43}); Path=\/; HttpOnly; SameSite=Strict; Max-Age=604800$/;
const WEEK_MS = 7 * 24 * 3600_000;

/** The cookie value a sign-in answer sets (and checks the whole header). */
function cookieOf(response: LightMyRequestResponse, secure = false): string {
  const header = String(response.headers['set-cookie']);
  const match = (secure ? new RegExp(COOKIE_RE.source.replace('$', '; Secure$')) : COOKIE_RE).exec(header);
  expect(match, header).not.toBeNull();
  return match![1]!;
}

const withCookie = (cookie: string, extra: Record<string, string> = {}) => ({
  headers: { cookie: `subweave_session=${cookie}`, ...extra },
});
const sameSite = (cookie: string) => withCookie(cookie, { origin: TEST_BASE_URL });

async function signIn(t: TestApp, body: unknown): Promise<string> {
  return cookieOf(expectStatus(await t.call('POST', SESSION, { body }), 200));
}

async function mintAsAdmin(t: TestApp, userId: number): Promise<{ url: string; code: string; expires_at: string }> {
  return expectStatus(await t.admin('POST', `/users/${userId}/sign-in-link`), 201).json();
}

describeEachDatabase('browser sessions', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'session-admin' });

  describe('sign in with the API token', () => {
    it('answers {user_id, expires_at} 7 days ahead and sets the cookie; only its hash is stored', async () => {
      const user = await t.newUser();
      const before = Date.now();
      const response = expectStatus(await t.call('POST', SESSION, { body: { token: user.token } }), 200);
      const body = response.json<{ user_id: number; expires_at: string }>();
      expect(Object.keys(body).sort()).toEqual(['expires_at', 'user_id']);
      expect(body.user_id).toBe(user.userId);
      const expires = Date.parse(body.expires_at);
      expect(expires).toBeGreaterThanOrEqual(before + WEEK_MS);
      expect(expires).toBeLessThanOrEqual(Date.now() + WEEK_MS);
      const cookie = cookieOf(response);
      const rows = await t.database.db.selectFrom('sessions').selectAll().where('user_id', '=', user.userId).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.id_hash).toBe(hashToken(cookie));
      expect(JSON.stringify(rows)).not.toContain(cookie);

      const current = expectStatus(await t.call('GET', SESSION, withCookie(cookie)), 200);
      expect(current.json()).toEqual(body);
      expect(current.headers['set-cookie']).toBeUndefined();
    });

    it('refuses an unknown token (401 invalid_token) and a disabled user (403 account_disabled)', async () => {
      expectError(await t.call('POST', SESSION, { body: { token: 'not-a-token' } }), 401, 'invalid_token');
      const user = await t.newUser();
      expectStatus(await t.admin('PATCH', `/users/${user.userId}`, { is_active: false }), 200);
      const refused = await t.call('POST', SESSION, { body: { token: user.token } });
      expectError(refused, 403, 'account_disabled');
      expect(refused.headers['set-cookie']).toBeUndefined();
    });

    it('refuses a sign-in whose Origin names another site (403 bad_origin); its own Origin is fine', async () => {
      const user = await t.newUser();
      const foreign = await t.call('POST', SESSION, {
        body: { token: user.token },
        headers: { origin: 'https://evil.example' },
      });
      expectError(foreign, 403, 'bad_origin');
      expect(foreign.headers['set-cookie']).toBeUndefined();
      const own = await t.call('POST', SESSION, { body: { token: user.token }, headers: { origin: TEST_BASE_URL } });
      cookieOf(expectStatus(own, 200));
    });
  });

  describe('malformed sign-in bodies', () => {
    const cases: Array<[string, unknown]> = [
      ['both fields', { token: 'a', code: 'b' }],
      ['neither field', {}],
      ['an unknown field', { password: 'x' }],
      ['token not a string', { token: 5 }],
      ['code null', { code: null }],
      ['empty token', { token: '' }],
      ['oversized token', { token: 'x'.repeat(257) }],
      ['oversized code', { code: 'x'.repeat(257) }],
      ['an array', [{ token: 'a' }]],
      ['a string', 'token'],
    ];
    it.each(cases)('%s: 400 validation_failed', async (_label, body) => {
      const response = await t.call('POST', SESSION, {
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
      expectError(response, 400, 'validation_failed');
      expect(response.headers['set-cookie']).toBeUndefined();
    });

    it('invalid JSON: 400 invalid_json; no body: 400', async () => {
      expectError(
        await t.call('POST', SESSION, { body: '{"token":', headers: { 'content-type': 'application/json' } }),
        400,
        'invalid_json',
      );
      expect((await t.call('POST', SESSION)).statusCode).toBe(400);
    });
  });

  describe('sign-in links', () => {
    it('a provider mints one for a user who approved it: 201 {url, code, expires_at}; the code signs in once', async () => {
      const { user, provider } = await approvedPair(t);
      const before = Date.now();
      const minted = expectStatus(
        await t.call('POST', `${PROVIDERS}/${user.userId}/sign-in-link`, { token: provider.token }),
        201,
      ).json<{ url: string; code: string; expires_at: string }>();
      expect(Object.keys(minted).sort()).toEqual(['code', 'expires_at', 'url']);
      expect(minted.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(minted.url).toBe(`${TEST_BASE_URL}/app/sign-in#code=${minted.code}`);
      const expires = Date.parse(minted.expires_at);
      expect(expires).toBeGreaterThanOrEqual(before + 15 * 60_000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 15 * 60_000);
      const row = await t.database.db
        .selectFrom('sign_in_links')
        .selectAll()
        .where('user_id', '=', user.userId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        code_hash: hashToken(minted.code),
        used_at: null,
        minted_by: `provider:${provider.name}`,
      });

      const signedIn = expectStatus(await t.call('POST', SESSION, { body: { code: minted.code } }), 200);
      expect(signedIn.json<{ user_id: number }>().user_id).toBe(user.userId);
      const cookie = cookieOf(signedIn);
      expectStatus(await t.call('GET', ME, withCookie(cookie)), 200);
      expectError(await t.call('POST', SESSION, { body: { code: minted.code } }), 401, 'invalid_sign_in_code');
    });

    it('two concurrent sign-ins with one code: exactly one gets a session', async () => {
      const user = await t.newUser();
      const { code } = await mintAsAdmin(t, user.userId);
      const answers = await Promise.all([
        t.call('POST', SESSION, { body: { code } }),
        t.call('POST', SESSION, { body: { code } }),
      ]);
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses).toEqual([200, 401]);
      expectError(
        answers.find((a) => a.statusCode === 401)!,
        401,
        'invalid_sign_in_code',
      );
      const sessions = await t.database.db
        .selectFrom('sessions')
        .select('user_id')
        .where('user_id', '=', user.userId)
        .execute();
      expect(sessions).toHaveLength(1);
    });

    it('an expired or unknown code: 401 invalid_sign_in_code', async () => {
      const user = await t.newUser();
      const { code } = await mintAsAdmin(t, user.userId);
      await t.database.db
        .updateTable('sign_in_links')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('code_hash', '=', hashToken(code))
        .execute();
      expectError(await t.call('POST', SESSION, { body: { code } }), 401, 'invalid_sign_in_code');
      expectError(await t.call('POST', SESSION, { body: { code: 'A'.repeat(43) } }), 401, 'invalid_sign_in_code');
    });

    it('a code of a user disabled after minting: refused', async () => {
      const user = await t.newUser();
      const { code } = await mintAsAdmin(t, user.userId);
      expectStatus(await t.admin('PATCH', `/users/${user.userId}`, { is_active: false }), 200);
      // Disabling voids the unused link.
      expectError(await t.call('POST', SESSION, { body: { code } }), 401, 'invalid_sign_in_code');
      expectError(await t.admin('POST', `/users/${user.userId}/sign-in-link`), 403, 'account_disabled');
    });

    it('a provider without an approved connection is refused as on its subscription routes', async () => {
      const user = await t.newUser();
      const provider = await t.newProvider();
      const path = `${PROVIDERS}/${user.userId}/sign-in-link`;
      const subs = `${PROVIDERS}/${user.userId}/subs`;
      expectError(await t.call('POST', path, { token: provider.token }), 403, 'connection_not_approved');
      expectError(await t.call('GET', subs, { token: provider.token }), 403, 'connection_not_approved');
      await requestAccess(t, provider, user.userId); // pending, not approved
      expectError(await t.call('POST', path, { token: provider.token }), 403, 'connection_not_approved');
      expectError(
        await t.call('POST', `${PROVIDERS}/0/sign-in-link`, { token: provider.token }),
        400,
        'validation_failed',
      );
      expectError(await t.call('POST', path, { token: user.token }), 401, 'invalid_token');
      const links = await t.database.db
        .selectFrom('sign_in_links')
        .select('user_id')
        .where('user_id', '=', user.userId)
        .execute();
      expect(links).toHaveLength(0);
    });

    it('the admin mints one (404 for an unknown user); the audit log names the minter and never the code', async () => {
      const { user, provider } = await approvedPair(t);
      expectError(await t.admin('POST', '/users/999999999/sign-in-link'), 404, 'user_not_found');
      const byAdmin = await mintAsAdmin(t, user.userId);
      expect(byAdmin.url).toBe(`${TEST_BASE_URL}/app/sign-in#code=${byAdmin.code}`);
      const byProvider = expectStatus(
        await t.call('POST', `${PROVIDERS}/${user.userId}/sign-in-link`, { token: provider.token }),
        201,
      ).json<{ code: string }>();
      const entries = await t.database.db
        .selectFrom('audit_log')
        .selectAll()
        .where('user_id', '=', user.userId)
        .where('action', '=', 'user.create_sign_in_link')
        .orderBy('seq')
        .execute();
      expect(entries.map((e) => [e.actor_kind, e.actor_id, e.target])).toEqual([
        ['admin', 'api', `user:${user.userId}`],
        ['provider', provider.name, `user:${user.userId}`],
      ]);
      const everything =
        JSON.stringify(
          await t.database.db.selectFrom('events').selectAll().where('user_id', '=', user.userId).execute(),
        ) + JSON.stringify(entries);
      for (const code of [byAdmin.code, byProvider.code]) {
        expect(everything).not.toContain(code);
        expect(everything).not.toContain(hashToken(code));
      }
    });
  });

  describe('the cookie on user routes', () => {
    it('reads and writes subscriptions with the cookie alone; writes carry the service Origin', async () => {
      const user = await t.newUser();
      const cookie = await signIn(t, { token: user.token });
      expect(expectStatus(await t.call('GET', SUBS, withCookie(cookie)), 200).json()).toEqual([]);
      const created = expectStatus(await t.call('POST', SUBS, { ...sameSite(cookie), body: { name: 'browser' } }), 201);
      const token = created.json<{ token: string }>().token;
      expectStatus(await t.call('PATCH', `${SUBS}/${token}`, { ...sameSite(cookie), body: { name: 'renamed' } }), 200);
      expectStatus(await t.call('DELETE', `${SUBS}/${token}`, sameSite(cookie)), 204);
      expect(expectStatus(await t.call('GET', ME, withCookie(cookie)), 200).json()).toEqual({
        user_id: user.userId,
        is_active: true,
      });
    });

    it('CSRF: an unsafe request with the cookie and a foreign, missing or null Origin is 403 bad_origin and changes nothing', async () => {
      const user = await t.newUser();
      const cookie = await signIn(t, { token: user.token });
      const attempts: Array<[string, Record<string, string>]> = [
        ['another site', { origin: 'https://evil.example' }],
        ['a look-alike', { origin: `${TEST_BASE_URL}.evil.example` }],
        ['another scheme', { origin: TEST_BASE_URL.replace('http:', 'https:') }],
        ['no Origin', {}],
        ['Origin null', { origin: 'null' }],
      ];
      for (const [label, headers] of attempts) {
        expectError(
          await t.call('POST', SUBS, { ...withCookie(cookie, headers), body: { name: 'forged' } }),
          403,
          'bad_origin',
          label,
        );
        expectError(await t.call('DELETE', SESSION, withCookie(cookie, headers)), 403, 'bad_origin', label);
      }
      expect(expectStatus(await t.call('GET', SUBS, withCookie(cookie)), 200).json()).toEqual([]);
      // A safe method from another origin is allowed: it changes nothing, and the browser keeps the answer from that site.
      expectStatus(await t.call('GET', SUBS, withCookie(cookie, { origin: 'https://evil.example' })), 200);
      expectStatus(await t.call('GET', SESSION, withCookie(cookie, { origin: 'https://evil.example' })), 200);
    });

    it('API-Token wins over the cookie, and needs no Origin', async () => {
      const [owner, other] = [await t.newUser(), await t.newUser()];
      const cookie = await signIn(t, { token: owner.token });
      const me = await t.call('GET', ME, { token: other.token, ...withCookie(cookie) });
      expect(expectStatus(me, 200).json<{ user_id: number }>().user_id).toBe(other.userId);
      expectError(await t.call('GET', ME, { token: 'wrong', ...withCookie(cookie) }), 401, 'invalid_token');
      expectStatus(
        await t.call('POST', SUBS, { token: other.token, ...withCookie(cookie), body: { name: 'token' } }),
        201,
      );
    });

    it('an unknown, malformed or missing cookie: 401', async () => {
      expectError(await t.call('GET', SUBS, withCookie('A'.repeat(43))), 401, 'invalid_token');
      expectError(await t.call('GET', SESSION, withCookie('A'.repeat(43))), 401, 'invalid_token');
      expectError(await t.call('GET', SUBS, withCookie('short')), 401, 'missing_token');
      expectError(await t.call('GET', SESSION), 401, 'missing_token');
    });

    it('provider and admin routes ignore the cookie', async () => {
      const { user, provider } = await approvedPair(t);
      const cookie = await signIn(t, { token: user.token });
      // The provider's owner is a user too: its session is no provider credential.
      const ownerCookie = await signIn(t, { token: user.token });
      expectError(await t.call('GET', `${PROVIDERS}/${user.userId}`, withCookie(cookie)), 401, 'missing_token');
      expectError(
        await t.call('GET', `${PROVIDERS}/${user.userId}/subs`, withCookie(ownerCookie)),
        401,
        'missing_token',
      );
      expectError(
        await t.call('POST', `${PROVIDERS}/${user.userId}/sign-in-link`, sameSite(cookie)),
        401,
        'missing_token',
      );
      expectError(
        await t.call('GET', `/api/v1/admin/users/${user.userId}`, sameSite(cookie)),
        401,
        'missing_signature',
      );
      expectError(
        await t.call('POST', `/api/v1/admin/users/${user.userId}/sign-in-link`, sameSite(cookie)),
        401,
        'missing_signature',
      );
      expect(provider.name).toBeTruthy();
    });
  });

  describe('expiry and sign-out', () => {
    it('a use over an hour after the last write slides the expiry to 7 days ahead and sends the cookie again', async () => {
      const user = await t.newUser();
      const cookie = await signIn(t, { token: user.token });
      const twoHoursAgo = new Date(Date.now() - 2 * 3600_000).toISOString();
      const soon = new Date(Date.now() + 3600_000).toISOString();
      const where = hashToken(cookie);
      await t.database.db
        .updateTable('sessions')
        .set({ last_seen: twoHoursAgo, expires_at: soon })
        .where('id_hash', '=', where)
        .execute();

      const before = Date.now();
      const renewed = expectStatus(await t.call('GET', ME, withCookie(cookie)), 200);
      expect(cookieOf(renewed)).toBe(cookie);
      const row = await t.database.db
        .selectFrom('sessions')
        .selectAll()
        .where('id_hash', '=', where)
        .executeTakeFirstOrThrow();
      expect(Date.parse(row.expires_at)).toBeGreaterThanOrEqual(before + WEEK_MS);
      expect(Date.parse(row.last_seen)).toBeGreaterThanOrEqual(before);

      // Within the hour nothing is written and no cookie is sent.
      const again = expectStatus(await t.call('GET', SESSION, withCookie(cookie)), 200);
      expect(again.headers['set-cookie']).toBeUndefined();
      expect(again.json<{ expires_at: string }>().expires_at).toBe(row.expires_at);
      const unchanged = await t.database.db
        .selectFrom('sessions')
        .selectAll()
        .where('id_hash', '=', where)
        .executeTakeFirstOrThrow();
      expect(unchanged).toEqual(row);

      // GET /session slides it too.
      await t.database.db
        .updateTable('sessions')
        .set({ last_seen: twoHoursAgo })
        .where('id_hash', '=', where)
        .execute();
      expect(cookieOf(expectStatus(await t.call('GET', SESSION, withCookie(cookie)), 200))).toBe(cookie);
    });

    it('an expired session is refused, and housekeeping prunes expired sessions and links', async () => {
      const user = await t.newUser();
      const cookie = await signIn(t, { token: user.token });
      const live = await signIn(t, { token: user.token });
      const { code } = await mintAsAdmin(t, user.userId);
      const past = new Date(Date.now() - 1000).toISOString();
      await t.database.db
        .updateTable('sessions')
        .set({ expires_at: past })
        .where('id_hash', '=', hashToken(cookie))
        .execute();
      await t.database.db
        .updateTable('sign_in_links')
        .set({ expires_at: past })
        .where('code_hash', '=', hashToken(code))
        .execute();
      expectError(await t.call('GET', ME, withCookie(cookie)), 401, 'invalid_token');

      await t.context.housekeeping.prune();
      const sessions = await t.database.db
        .selectFrom('sessions')
        .select('id_hash')
        .where('user_id', '=', user.userId)
        .execute();
      expect(sessions).toEqual([{ id_hash: hashToken(live) }]);
      const links = await t.database.db
        .selectFrom('sign_in_links')
        .select('code_hash')
        .where('user_id', '=', user.userId)
        .execute();
      expect(links).toEqual([]);
    });

    it('sign-out deletes the session and clears the cookie; it is idempotent', async () => {
      const user = await t.newUser();
      const cookie = await signIn(t, { token: user.token });
      const other = await signIn(t, { token: user.token });
      const out = expectStatus(await t.call('DELETE', SESSION, sameSite(cookie)), 204);
      expect(out.headers['set-cookie']).toBe('subweave_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
      expect(out.body).toBe('');
      expectError(await t.call('GET', SESSION, withCookie(cookie)), 401, 'invalid_token');
      expectStatus(await t.call('GET', SESSION, withCookie(other)), 200);
      expectStatus(await t.call('DELETE', SESSION, sameSite(cookie)), 204);
      expectStatus(await t.call('DELETE', SESSION), 204);
    });
  });

  describe('sessions end with the credential', () => {
    async function twoSessionsAndALink(user: { userId: number; token: string }) {
      const cookies = [await signIn(t, { token: user.token }), await signIn(t, { token: user.token })];
      const { code } = await mintAsAdmin(t, user.userId);
      return { cookies, code };
    }

    async function expectEnded(cookies: string[], code: string) {
      for (const cookie of cookies) expectError(await t.call('GET', SESSION, withCookie(cookie)), 401, 'invalid_token');
      expectError(await t.call('POST', SESSION, { body: { code } }), 401, 'invalid_sign_in_code');
    }

    it('refreshing the API token (admin API) ends every session and voids unused links', async () => {
      const user = await t.newUser();
      const bystander = await t.newUser();
      const kept = await signIn(t, { token: bystander.token });
      const { cookies, code } = await twoSessionsAndALink(user);
      const { api_token } = expectStatus(await t.admin('POST', `/users/${user.userId}/refresh-token`), 200).json<{
        api_token: string;
      }>();
      await expectEnded(cookies, code);
      expectStatus(await t.call('GET', SESSION, withCookie(kept)), 200);
      cookieOf(expectStatus(await t.call('POST', SESSION, { body: { token: api_token } }), 200));
      expectError(await t.call('POST', SESSION, { body: { token: user.token } }), 401, 'invalid_token');
    });

    it('refreshing through the users service (what `subweave users token` runs) ends them too', async () => {
      const user = await t.newUser();
      const { cookies, code } = await twoSessionsAndALink(user);
      await t.context.users.refreshToken(user.userId);
      await expectEnded(cookies, code);
    });

    it('disabling the user ends every session; enabling does not bring them back', async () => {
      const user = await t.newUser();
      const { cookies, code } = await twoSessionsAndALink(user);
      expectStatus(await t.admin('PATCH', `/users/${user.userId}`, { is_active: false }), 200);
      await expectEnded(cookies, code);
      expectStatus(await t.admin('PATCH', `/users/${user.userId}`, { is_active: true }), 200);
      await expectEnded(cookies, code);
    });

    it('deleting the user deletes its sessions and links', async () => {
      const user = await t.newUser();
      const { cookies, code } = await twoSessionsAndALink(user);
      expectStatus(await t.admin('DELETE', `/users/${user.userId}`), 204);
      await expectEnded(cookies, code);
      const left = await t.database.db
        .selectFrom('sessions')
        .select('id_hash')
        .where('user_id', '=', user.userId)
        .execute();
      expect(left).toEqual([]);
    });
  });
});

describeEachDatabase('browser sessions behind https', (kind) => {
  const BASE = 'https://subweave.example:8443';
  const t = useTestApp(kind, { PUBLIC_BASE_URL: `${BASE}/` });

  it('the cookie carries Secure, links use PUBLIC_BASE_URL, and writes need its exact origin', async () => {
    const user = await t.newUser();
    const cookie = cookieOf(expectStatus(await t.call('POST', SESSION, { body: { token: user.token } }), 200), true);
    const out = await t.call('DELETE', SESSION, withCookie(cookie, { origin: 'https://subweave.example' }));
    expectError(out, 403, 'bad_origin');
    expectError(
      await t.call('POST', SUBS, {
        ...withCookie(cookie, { origin: 'http://subweave.example:8443' }),
        body: { name: 'x' },
      }),
      403,
      'bad_origin',
    );
    expectStatus(await t.call('POST', SUBS, { ...withCookie(cookie, { origin: BASE }), body: { name: 'x' } }), 201);
    const cleared = expectStatus(await t.call('DELETE', SESSION, withCookie(cookie, { origin: BASE })), 204);
    expect(cleared.headers['set-cookie']).toBe(
      'subweave_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Secure',
    );
  });
});

describe('browser sessions without PUBLIC_BASE_URL', () => {
  // The default base URL (http://localhost:PORT): a newcomer opening http://127.0.0.1:3000/app/ can still work.
  const t = useTestApp('sqlite', { PUBLIC_BASE_URL: '', PORT: '3000' });

  it('accepts an Origin equal to http:// and the Host header, and nothing else', async () => {
    expect(t.config.publicBaseUrl).toBe('http://localhost:3000');
    const user = await t.newUser();
    const cookie = cookieOf(expectStatus(await t.call('POST', SESSION, { body: { token: user.token } }), 200));
    let written = 0;
    const write = (headers: Record<string, string>) =>
      t.call('POST', SUBS, { ...withCookie(cookie, headers), body: { name: `sub${++written}` } });
    expectStatus(await write({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' }), 201);
    expectStatus(await write({ host: 'localhost:3000', origin: 'http://localhost:3000' }), 201);
    expectError(await write({ host: '127.0.0.1:3000', origin: 'http://localhost:3000' }), 403, 'bad_origin');
    expectError(await write({ host: '127.0.0.1:3000', origin: 'https://127.0.0.1:3000' }), 403, 'bad_origin');
    expectError(await write({ host: '127.0.0.1:3000', origin: 'http://evil.example' }), 403, 'bad_origin');
    expectError(await write({ host: '127.0.0.1:3000' }), 403, 'bad_origin');
    expectError(await write({ host: '127.0.0.1:3000', origin: 'null' }), 403, 'bad_origin');
  });
});

describeEachDatabase('sign-in failures and rate limits', (kind) => {
  const t = useTestApp(kind, { RATE_LIMIT_ANON_PER_MIN: '3' });

  it('failed sign-ins spend the anonymous budget as failed API tokens do; good ones do not', async () => {
    const ip = '198.51.100.77';
    const user = await t.newUser();
    for (let i = 0; i < 5; i++) {
      cookieOf(expectStatus(await t.call('POST', SESSION, { body: { token: user.token }, ip }), 200));
    }
    expectError(await t.call('POST', SESSION, { body: { token: 'wrong' }, ip }), 401, 'invalid_token');
    expectError(await t.call('POST', SESSION, { body: { code: 'wrong' }, ip }), 401, 'invalid_sign_in_code');
    expectError(await t.call('GET', SESSION, { ...withCookie('B'.repeat(43)), ip }), 401, 'invalid_token');
    // The budget is spent: the next attempt, right or wrong, waits.
    expectError(await t.call('POST', SESSION, { body: { token: user.token }, ip }), 429, 'rate_limited');
    expectError(await t.call('GET', ME, { token: user.token, ip }), 429, 'rate_limited');
  });
});
