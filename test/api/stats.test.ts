// HTTP tests of GET /api/v1/admin/stats: request counting by kind, the range rules and their 400s, totals at `end`.
import { randomBytes, randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.js';
import type { RequestKind } from '../../src/http/route-kind.js';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import { expectError } from '../support/expect.js';
import { freshUserId } from '../support/factories.js';

interface StatsBody {
  period: { start: string; end: string };
  total_requests: number;
  total_subscriptions: number;
  total_users: number;
  total_providers: number;
  new_users: number;
  new_subscriptions: number;
  requests_by_kind: { public: number; page: number; user: number; provider: number; admin: number; anonymous: number };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Rows with chosen created_at values, written directly so tests control time. */
function fixtures(database: DatabaseHandle) {
  const db = database.db;
  return {
    async user(createdAt: string): Promise<number> {
      const userId = freshUserId();
      await db
        .insertInto('users')
        .values({
          user_id: userId,
          user_hash: randomUUID(),
          token_hash: randomBytes(16).toString('hex'),
          is_active: 1,
          created_at: createdAt,
          updated_at: createdAt,
        })
        .execute();
      return userId;
    },
    async subscription(userId: number, createdAt: string): Promise<void> {
      await db
        .insertInto('subscriptions')
        .values({
          token: randomBytes(16).toString('hex'),
          user_id: userId,
          provider_hash: null,
          scope: '',
          name: randomUUID(),
          description: null,
          created_at: createdAt,
          updated_at: createdAt,
        })
        .execute();
    },
    async provider(ownerId: number, createdAt: string): Promise<void> {
      await db
        .insertInto('providers')
        .values({
          provider_hash: randomUUID(),
          provider_name: `p${randomBytes(5).toString('hex')}`,
          provider_url: 'https://provider.example',
          owner_user_id: ownerId,
          token_hash: randomBytes(16).toString('hex'),
          is_active: 1,
          created_at: createdAt,
          updated_at: createdAt,
        })
        .execute();
    },
    async requests(bucketStart: string, kind: RequestKind, count: number): Promise<void> {
      await db.insertInto('request_counts').values({ bucket_start: bucketStart, kind, count }).execute();
    },
  };
}

describeEachDatabase('admin stats', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'stats-secret-of-at-least-32-characters' });

  async function stats(query = ''): Promise<StatsBody> {
    const res = await t.admin('GET', `/stats${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<StatsBody>();
  }

  async function expectInvalid(query: string, path: string) {
    const { details } = expectError(await t.admin('GET', `/stats${query}`), 400, 'validation_failed');
    expect((details?.['issues'] as Array<{ path: string }>).map((issue) => issue.path)).toContain(path);
  }

  it("counts every request by kind, and includes this instance's unflushed counts at once", async () => {
    const { token } = await t.newUser();
    const sub = await t.call('POST', '/api/v1/subs', { token, body: { name: 'counted' } });
    expect(sub.statusCode, sub.body).toBe(201);
    const before = await stats('?period=day');

    await t.call('GET', `/api/v1/sub/${sub.json<{ token: string }>().token}`);
    await t.call('GET', '/sub/no-such-token');
    await t.call('GET', '/api/v1/subs', { token });
    await t.call('GET', '/api/v1/me', { token });
    await t.call('GET', '/api/v1/providers/1');
    await t.call('GET', '/healthz');
    await t.call('GET', '/no/such/path');
    await t.call('GET', '/%73ub/no-such-token');
    await t.call('DELETE', '/sub/no-such-token');
    await t.call('GET', '/connect/nobody');
    expect((await t.call('GET', '/api/v1/admin/stats')).statusCode).toBe(401);

    const after = await stats('?period=day');
    // The first stats call is counted too (admin); /healthz counts only in the total. Kinds come from the matched
    // route: the percent-encoded link is public, the unknown path and the 405 are anonymous (docs/api.md, Request kinds).
    const kinds = ['public', 'page', 'user', 'provider', 'admin', 'anonymous'] as const;
    expect(Object.fromEntries(kinds.map((k) => [k, after.requests_by_kind[k] - before.requests_by_kind[k]]))).toEqual({
      public: 3,
      page: 1,
      user: 2,
      provider: 1,
      admin: 2,
      anonymous: 2,
    });
    expect(after.total_requests - before.total_requests).toBe(12);
  });

  it('defaults to the last 7 days ending now', async () => {
    const startedAt = Date.now();
    const body = await stats();
    const end = Date.parse(body.period.end);
    expect(end).toBeGreaterThanOrEqual(startedAt - 1000);
    expect(end).toBeLessThanOrEqual(Date.now());
    expect(end - Date.parse(body.period.start)).toBe(7 * DAY);
    expect(body).toMatchObject({ requests_by_kind: expect.any(Object) });
  });

  it.each([
    ['day', DAY],
    ['week', 7 * DAY],
    ['month', 30 * DAY],
  ])('period=%s is a rolling range ending now', async (period, length) => {
    const startedAt = Date.now();
    const body = await stats(`?period=${period}`);
    expect(Date.parse(body.period.end)).toBeGreaterThanOrEqual(startedAt - 1000);
    expect(Date.parse(body.period.end) - Date.parse(body.period.start)).toBe(length);
  });

  it.each([
    ['2024-06-01T12:00:00%2B02:00', '2024-06-01T10:00:00.000Z'],
    ['2024-06-01T12:00:00+02:00', '2024-06-01T10:00:00.000Z'], // unencoded '+' arrives as a space
    ['2024-06-01T12:00:00-0530', '2024-06-01T17:30:00.000Z'],
    ['2024-06-01', '2024-06-01T00:00:00.000Z'],
    ['2024-06-01T08:15', '2024-06-01T08:15:00.000Z'],
    ['2024-06-01T08:15:30.123456Z', '2024-06-01T08:15:30.123Z'],
    ['2024-02-29T23:59:59Z', '2024-02-29T23:59:59.000Z'],
  ])('echoes start_date %s as %s', async (given, echoed) => {
    const body = await stats(`?start_date=${given}&end_date=2030-01-01T00:00:00Z`);
    expect(body.period).toEqual({ start: echoed, end: '2030-01-01T00:00:00.000Z' });
  });

  it('with only start_date, the range ends now', async () => {
    const body = await stats('?start_date=2020-01-01T00:00:00Z');
    expect(body.period.start).toBe('2020-01-01T00:00:00.000Z');
    expect(Math.abs(Date.parse(body.period.end) - Date.now())).toBeLessThan(5000);
  });

  it('with only end_date, the range starts at the first recorded activity (never after end)', async () => {
    await fixtures(t.database).requests('1999-05-06T07:00:00.000Z', 'public', 1);
    expect((await stats('?end_date=2000-01-01T00:00:00Z')).period).toEqual({
      start: '1999-05-06T07:00:00.000Z',
      end: '2000-01-01T00:00:00.000Z',
    });
    expect((await stats('?end_date=1990-01-01')).period).toEqual({
      start: '1990-01-01T00:00:00.000Z',
      end: '1990-01-01T00:00:00.000Z',
    });
  });

  it.each([
    ['?period=day&start_date=2024-01-01', 'querystring.period'],
    ['?period=week&end_date=2024-01-01', 'querystring.period'],
    ['?period=month&start_date=2024-01-01&end_date=2024-02-01', 'querystring.period'],
    ['?period=year', 'querystring.period'],
    ['?period=', 'querystring.period'],
    ['?start_date=yesterday', 'querystring.start_date'],
    ['?start_date=', 'querystring.start_date'],
    ['?start_date=1717200000', 'querystring.start_date'],
    ['?start_date=2024-13-01', 'querystring.start_date'],
    ['?start_date=2024-02-30', 'querystring.start_date'],
    ['?start_date=2023-02-29', 'querystring.start_date'],
    ['?start_date=2024-06-01T24:00:00Z', 'querystring.start_date'],
    ['?start_date=2024-06-01T12:00:00%2B25:00', 'querystring.start_date'],
    ['?end_date=2024-06-01T12:00:00Zjunk', 'querystring.end_date'],
    ['?end_date=%27%20OR%201=1--', 'querystring.end_date'],
    ['?start_date=2024-02-01&end_date=2024-01-01', 'querystring.start_date'],
    ['?start_date=2024-01-01T00:00:01Z&end_date=2024-01-01T00:00:00Z', 'querystring.start_date'],
    ['?start_date=2999-01-01', 'querystring.start_date'],
  ])('%s is 400 validation_failed on %s', async (query, path) => {
    await expectInvalid(query, path);
  });

  it('accepts start_date equal to end_date, and ignores unknown query parameters', async () => {
    const body = await stats('?start_date=2024-01-01T00:00:00Z&end_date=2024-01-01T00:00:00Z&foo=bar');
    expect(body.period).toEqual({ start: '2024-01-01T00:00:00.000Z', end: '2024-01-01T00:00:00.000Z' });
  });

  it('counts users, subscriptions and providers existing at end, and those created within the range', async () => {
    const f = fixtures(t.database);
    const first = await f.user('2003-01-10T00:00:00.000Z');
    const second = await f.user('2003-01-20T00:00:00.000Z');
    await f.subscription(first, '2003-01-15T00:00:00.000Z');
    await f.subscription(second, '2003-01-21T00:00:00.000Z');
    await f.provider(first, '2003-01-25T00:00:00.000Z');

    const counts = (
      users: number,
      newUsers: number,
      subscriptions: number,
      newSubscriptions: number,
      providers: number,
    ) => ({
      total_users: users,
      new_users: newUsers,
      total_subscriptions: subscriptions,
      new_subscriptions: newSubscriptions,
      total_providers: providers,
    });
    expect(await stats('?start_date=2003-01-01&end_date=2003-01-12')).toMatchObject(counts(1, 1, 0, 0, 0));
    expect(await stats('?start_date=2003-01-16&end_date=2003-01-21T00:00:00Z')).toMatchObject(counts(2, 1, 2, 1, 0));
    expect(await stats('?start_date=2003-01-22&end_date=2003-01-31')).toMatchObject(counts(2, 0, 2, 0, 1));
  });

  it('shows users and subscriptions created through the API in the current range', async () => {
    const before = await stats('?period=day');
    const { token } = await t.newUser();
    expect((await t.call('POST', '/api/v1/subs', { token, body: { name: 'fresh' } })).statusCode).toBe(201);
    const after = await stats('?period=day');
    expect(after.new_users - before.new_users).toBe(1);
    expect(after.total_users - before.total_users).toBe(1);
    expect(after.new_subscriptions - before.new_subscriptions).toBe(1);
    expect(after.total_subscriptions - before.total_subscriptions).toBe(1);
  });

  it('sums whole hourly buckets that overlap the range', async () => {
    const f = fixtures(t.database);
    await f.requests('2004-03-01T10:00:00.000Z', 'public', 5);
    await f.requests('2004-03-01T11:00:00.000Z', 'user', 7);
    await f.requests('2004-03-01T13:00:00.000Z', 'infra', 3);

    const both = await stats('?start_date=2004-03-01T10:30:00Z&end_date=2004-03-01T11:00:00Z');
    expect(both).toMatchObject({ total_requests: 12, requests_by_kind: { public: 5, user: 7, provider: 0, admin: 0 } });
    const second = await stats('?start_date=2004-03-01T11:00:00Z&end_date=2004-03-01T11:59:59Z');
    expect(second).toMatchObject({ total_requests: 7, requests_by_kind: { public: 0, user: 7 } });
    const infraOnly = await stats('?start_date=2004-03-01T12:00:00Z&end_date=2004-03-01T14:00:00Z');
    expect(infraOnly).toMatchObject({
      total_requests: 3,
      requests_by_kind: { public: 0, user: 0, provider: 0, admin: 0 },
    });
  });
});
