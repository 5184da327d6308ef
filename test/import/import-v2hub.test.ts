// `subweave import-v2hub` end to end: a v2hub fixture on PostgreSQL imported into SQLite and PostgreSQL, then used through the app.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { runCli, type CliResult } from '../support/cli.js';
import {
  clientFor,
  scratchDatabaseUrl,
  startTestApp,
  testConfig,
  testDatabaseKinds,
  TEST_BASE_URL,
  type TestClient,
} from '../support/harness.js';
import { expectError } from '../support/expect.js';
import { sha32 } from '../support/factories.js';
import { CONFIGS, createV2hubFixture, UPSTREAM_LINES, V2HUB_DOMAIN, type V2hubFixture } from './v2hub-fixture.js';

const pgUrl = process.env['TEST_DATABASE_URL'];

function importInto(target: string, fixture: V2hubFixture, ...flags: string[]): Promise<CliResult> {
  return runCli(['import-v2hub', '--from', fixture.url, '--domain', V2HUB_DOMAIN, ...flags], {
    DATABASE_URL: target,
    PUBLIC_BASE_URL: TEST_BASE_URL,
  });
}

/** The report line of one table: [new, already present, skipped]. */
function counts(report: string, table: string): number[] {
  const line = report.split('\n').find((l) => l.trimStart().startsWith(`${table} `));
  const match = /(\d+) (?:would be )?new, (\d+) already present, (\d+) skipped/.exec(line ?? '');
  expect(match, `report line of ${table} in:\n${report}`).not.toBeNull();
  return (match as RegExpExecArray).slice(1).map(Number);
}

const TABLES = ['users', 'providers', 'connections', 'subscriptions', 'sources', 'external_cache'] as const;

async function rowCounts(handle: DatabaseHandle): Promise<Record<(typeof TABLES)[number], number>> {
  const out = {} as Record<(typeof TABLES)[number], number>;
  for (const table of TABLES) {
    out[table] = (await handle.db.selectFrom(table).selectAll().execute()).length;
  }
  return out;
}

const link = (uri: string, comment: string): string => `${uri}#${encodeURIComponent(comment)}`;

describe.skipIf(!pgUrl)('subweave import-v2hub', () => {
  let fixture: V2hubFixture;
  beforeAll(async () => {
    fixture = await createV2hubFixture(pgUrl as string);
  });
  afterAll(async () => {
    await fixture?.drop();
  });

  for (const kind of testDatabaseKinds()) {
    describe(`into an empty ${kind} database`, () => {
      let target: { url: string; cleanup: () => Promise<void> };
      let result: CliResult;
      let handle: DatabaseHandle;
      let app: FastifyInstance;
      let t: TestClient;

      beforeAll(async () => {
        target = await scratchDatabaseUrl(kind);
        result = await importInto(target.url, fixture);
        handle = createDatabase(target.url);
        ({ app } = await startTestApp(testConfig({ DATABASE_URL: target.url }), handle));
        t = clientFor(app, '');
      });
      afterAll(async () => {
        await app?.close();
        await handle?.close();
        await target?.cleanup();
      });

      it('reports what it imported and what it skipped, and why', () => {
        expect(result.stderr).toBe('');
        expect(result.code).toBe(0);
        expect(counts(result.stdout, 'users')).toEqual([5, 0, 1]);
        expect(counts(result.stdout, 'providers')).toEqual([2, 0, 1]);
        expect(counts(result.stdout, 'authorizations')).toEqual([4, 0, 1]);
        expect(counts(result.stdout, 'subscriptions')).toEqual([6, 0, 1]);
        expect(counts(result.stdout, 'sources')).toEqual([12, 0, 2]);
        expect(counts(result.stdout, 'external content')).toEqual([1, 0, 2]);
        expect(result.stdout).toContain('users: user_id 0 is not a positive integer');
        expect(result.stdout).toContain('providers: provider_name is not valid in subweave');
        expect(result.stdout).toContain('subscriptions: its user was not imported');
        expect(result.stdout).toMatch(/sources: not a valid config/);
        expect(result.stdout).toContain('external content: never fetched by v2hub');
        expect(result.stdout).toContain('external content: no imported source uses this URL');
        expect(result.stdout).toMatch(/its provider was not imported; it becomes one of user 71001's own/);
      });

      it('writes an event and an audit entry per imported account, provider, authorization and subscription', async () => {
        const events = await handle.db.selectFrom('events').select(['id', 'type', 'actor_kind', 'actor_id']).execute();
        const byType = (type: string) => events.filter((e) => e.type === type).length;
        expect([byType('user.created'), byType('provider.created'), byType('connection.requested')]).toEqual([5, 2, 4]);
        expect(byType('subscription.created')).toBe(6);
        expect(events).toHaveLength(17);
        expect(events.every((e) => e.actor_kind === 'admin' && e.actor_id === 'import')).toBe(true);
        const audit = await handle.db.selectFrom('audit_log').selectAll().execute();
        expect(audit.map((entry) => entry.event_id).sort()).toEqual(events.map((e) => e.id).sort());
        for (const entry of audit) {
          expect(entry).toMatchObject({ actor_kind: 'admin', actor_id: 'import', client_ip: null, request_id: null });
        }
        const text = JSON.stringify(audit);
        for (const user of [fixture.users.short, fixture.users.long]) expect(text).not.toContain(user.token);
        expect(text).not.toContain(fixture.subs.managed);
      });

      it('keeps old API tokens of both lengths working, and inactive users disabled', async () => {
        for (const user of [fixture.users.short, fixture.users.long]) {
          const res = await t.call('GET', '/api/v1/me', { token: user.token });
          expect(res.statusCode, user.token).toBe(200);
          expect(res.json().user_id).toBe(user.userId);
        }
        expect(fixture.users.short.token).toHaveLength(22);
        expect(fixture.users.long.token).toHaveLength(43);
        expectError(
          await t.call('GET', '/api/v1/me', { token: fixture.users.inactive.token }),
          403,
          'account_disabled',
        );
        expectError(await t.call('GET', '/api/v1/me', { token: 'x'.repeat(22) }), 401, 'invalid_token');
      });

      it('keeps providers, their tokens and every authorization status', async () => {
        const { bot, panel } = fixture.providers;
        expect(panel.token).toHaveLength(22);
        const approved = await t.call('GET', `/api/v1/providers/${fixture.users.short.userId}`, { token: bot.token });
        expect(approved.statusCode).toBe(200);
        expect(approved.json().status).toBe('approved');
        const viaShort = await t.call('GET', `/api/v1/providers/${fixture.users.long.userId}`, { token: panel.token });
        expect(viaShort.json().status).toBe('approved');
        const revoked = await t.call('GET', `/api/v1/providers/${fixture.users.short.userId}`, { token: panel.token });
        expect(revoked.json().status).toBe('revoked');
        const mine = await t.call('GET', '/api/v1/me/providers', { token: fixture.users.long.token });
        const statuses = Object.fromEntries(
          (mine.json().connections as Array<{ provider_name: string; status: string }>).map((c) => [
            c.provider_name,
            c.status,
          ]),
        );
        expect(statuses).toEqual({ 'vpn-bot': 'pending', oldpanel: 'approved' });
        // The provider manages the subscription it created, as in v2hub.
        const managed = await t.call('GET', `/api/v1/providers/${fixture.users.short.userId}/subs`, {
          token: bot.token,
        });
        expect((managed.json() as Array<{ token: string }>).map((s) => s.token)).toEqual([fixture.subs.managed]);
      });

      it('serves every old public link with the same configs, in order, with the comments', async () => {
        const lines = async (token: string): Promise<string[]> => {
          const res = await t.call('GET', `/sub/${token}?format=plain`);
          expect(res.statusCode).toBe(200);
          // v2hub's update interval, kept for the clients already polling the link.
          expect(res.headers['profile-update-interval']).toBe('12');
          return res.body.split('\n');
        };
        const upstream = UPSTREAM_LINES.map((l) => l.slice(0, l.indexOf('#')));
        const home = await lines(fixture.subs.home);
        expect(home.map((l) => l.slice(0, l.indexOf('#')))).toEqual([CONFIGS.frankfurt, ...upstream, CONFIGS.paris]);
        expect(home[0]).toBe(link(CONFIGS.frankfurt, 'Frankfurt 🇩🇪'));
        // v2hub's placeholder comment imports as no comment: the host is shown.
        expect(home[3]).toBe(link(CONFIGS.paris, 'par.example.org'));
        // The reference's own comment wins over the referenced one; the hidden reference and the dangling one add nothing.
        expect(await lines(fixture.subs.work)).toEqual([
          link(CONFIGS.frankfurt, 'Берлин'),
          ...home.slice(1),
          link(CONFIGS.tokyo, 'tyo.example.net'),
        ]);
        expect(await lines(fixture.subs.feed)).toEqual([link(CONFIGS.hidden, 'hid.example.com')]);
        expect((await t.call('GET', `/sub/${fixture.subs.panel}?format=plain`)).body).toBe('');
      });

      it('keeps order, hidden, depth, comments and dangling references in the sources', async () => {
        const res = await t.call('GET', `/api/v1/subs/${fixture.subs.work}`, { token: fixture.users.long.token });
        expect(res.statusCode).toBe(200);
        const sources = res.json().sources as Array<Record<string, unknown>>;
        expect(sources.map((s) => [s.source_type, s.comment, s.is_hidden, s.max_depth, s.last_error])).toEqual([
          ['config', 'Берлин', false, 0, null],
          ['internal_token', null, false, 2, null],
          ['internal_token', null, true, 3, null],
          ['internal_token', null, false, 3, 'subscription_deleted'],
          ['config', null, false, 3, null],
        ]);
        expect(sources[3]?.id).toBe(sha32(`internal:${fixture.deletedToken}`));
        expect(sources[0]?.id).toBe(sha32(CONFIGS.frankfurt));
        const home = await t.call('GET', `/api/v1/subs/${fixture.subs.home}`, { token: fixture.users.short.token });
        const external = (home.json().sources as Array<Record<string, unknown>>)[1];
        expect(external).toMatchObject({
          source_type: 'external_url',
          data: fixture.feedUrl,
          configs_count: 2,
          last_fetched_at: '2025-03-01T09:00:00.000Z',
        });
      });

      it('keeps names, descriptions and scopes of subscriptions', async () => {
        const res = await t.call('GET', '/api/v1/subs', { token: fixture.users.short.token });
        const list = res.json() as Array<{
          token: string;
          name: string;
          description: string | null;
          provider_name: string | null;
        }>;
        expect(list.map((s) => [s.token, s.name, s.description, s.provider_name])).toEqual([
          [fixture.subs.home, 'Дом 🏠', 'Мои серверы', null],
          [fixture.subs.managed, 'Bot sub', null, 'vpn-bot'],
          [fixture.subs.stray, 'From a bad provider', null, null],
        ]);
      });

      it('refuses the now non-empty target without --merge, and a --merge re-run changes nothing', async () => {
        const before = await rowCounts(handle);
        const refused = await importInto(target.url, fixture);
        expect(refused.code).toBe(1);
        expect(refused.stdout).toBe('');
        expect(refused.stderr).toMatch(
          /^subweave import-v2hub: the target database is not empty \(5 users, 2 providers, 6 subscriptions\); pass --merge to import into it\n$/,
        );
        const again = await importInto(target.url, fixture, '--merge');
        expect(again.code).toBe(0);
        for (const table of ['users', 'providers', 'authorizations', 'subscriptions', 'sources', 'external content']) {
          expect(counts(again.stdout, table)[0], table).toBe(0);
        }
        expect(counts(again.stdout, 'users')).toEqual([0, 5, 1]);
        expect(counts(again.stdout, 'sources')).toEqual([0, 12, 2]);
        expect(await rowCounts(handle)).toEqual(before);
      });
    });
  }

  describe('dry run, additions and errors', () => {
    it('prints what would change and writes nothing, not even a database file', async () => {
      const target = await scratchDatabaseUrl('sqlite');
      try {
        // v2hub's own DATABASE_URL, driver name included, is accepted as it is.
        const asyncpgUrl = fixture.url.replace(/^postgres(ql)?:/, 'postgresql+asyncpg:');
        const result = await runCli(['import-v2hub', '--from', asyncpgUrl, '--dry-run'], {
          DATABASE_URL: target.url,
          PUBLIC_BASE_URL: TEST_BASE_URL,
        });
        expect(result.code).toBe(0);
        expect(result.stdout).toMatch(/^v2hub import, dry run: nothing was written\n/);
        expect(counts(result.stdout, 'subscriptions')).toEqual([6, 0, 1]);
        expect(existsSync(target.url.slice('sqlite:'.length))).toBe(false);
      } finally {
        await target.cleanup();
      }
    });

    it('creates no table in an empty PostgreSQL schema on a dry run', async () => {
      const target = await scratchDatabaseUrl('postgres');
      const schema = decodeURIComponent(target.url.split('options=')[1] ?? '').split('=')[1];
      const client = new pg.Client({ connectionString: pgUrl });
      client.on('error', () => undefined);
      await client.connect();
      try {
        const result = await importInto(target.url, fixture, '--dry-run');
        expect(result.code, result.stderr).toBe(0);
        expect(counts(result.stdout, 'users')).toEqual([5, 0, 1]);
        const tables = await client.query('select table_name from information_schema.tables where table_schema = $1', [
          schema,
        ]);
        expect(tables.rows).toEqual([]);
      } finally {
        await client.end();
        await target.cleanup();
      }
    });

    it('leaves a migrated database untouched on a dry run, and a merge adds only what is new', async () => {
      const target = await scratchDatabaseUrl('postgres');
      const handle = createDatabase(target.url);
      try {
        const first = await importInto(target.url, fixture);
        expect(first.code, first.stderr).toBe(0);
        const before = await rowCounts(handle);
        await fixture.addUser(73001);
        const dry = await importInto(target.url, fixture, '--dry-run', '--merge');
        expect(counts(dry.stdout, 'users')).toEqual([1, 5, 1]);
        expect(await rowCounts(handle)).toEqual(before);
        const merged = await importInto(target.url, fixture, '--merge');
        expect(counts(merged.stdout, 'users')).toEqual([1, 5, 1]);
        expect(counts(merged.stdout, 'subscriptions')).toEqual([0, 6, 1]);
        expect((await rowCounts(handle)).users).toBe(before.users + 1);
      } finally {
        await handle.close();
        await target.cleanup();
      }
    });

    it('answers a bad URL, an unreachable server and a database that is not v2hub in one line', async () => {
      const env = { DATABASE_URL: 'sqlite::memory:' };
      const bad = await runCli(['import-v2hub', '--from', 'mysql://v2hub@db/v2hub'], env);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/^subweave import-v2hub: --from must be the postgres:\/\/[^\n]*\n$/);
      const missing = await runCli(['import-v2hub'], env);
      expect(missing.code).toBe(2);
      const down = await runCli(['import-v2hub', '--from', 'postgres://postgres@127.0.0.1:1/v2hub'], env);
      expect(down.code).toBe(1);
      expect(down.stderr).toMatch(
        /^subweave import-v2hub: cannot connect to the v2hub database at 127\.0\.0\.1:1\/v2hub: [^\n]+\n$/,
      );
      const empty = await scratchDatabaseUrl('postgres');
      try {
        const other = await runCli(['import-v2hub', '--from', empty.url], env);
        expect(other.code).toBe(1);
        expect(other.stderr).toMatch(
          /^subweave import-v2hub: not a v2hub database \([^)]*\): missing tables users, providers, [^\n]+\n$/,
        );
      } finally {
        await empty.cleanup();
      }
    });
  });
});
