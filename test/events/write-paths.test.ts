// Events and audit entries from the write paths test/events/outbox.test.ts leaves out (docs/webhooks.md): the admin
// API's providers, users, whitelist and settings, a user's rejection, automatic bans, the background refresher, and
// the admin CLI writing to the database directly.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, scratchDatabaseUrl, useTestApp, type DatabaseKind } from '../support/harness.js';
import { decide, freshIp, freshUserId, requestAccess, subsApi, uniqueProviderName } from '../support/factories.js';
import { expectStatus } from '../support/expect.js';
import { useUpstream } from '../support/upstream-server.js';
import { runCli } from '../support/cli.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

interface EventRow {
  id: string;
  type: string;
  actor_kind: string;
  actor_id: string;
  data: string;
}

async function lastSeq(db: DatabaseHandle['db']): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('seq').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0);
}

/** Runs `work` and answers the events it wrote, oldest first. */
async function eventsOf(db: DatabaseHandle['db'], work: () => Promise<unknown>): Promise<EventRow[]> {
  const before = await lastSeq(db);
  await work();
  return db
    .selectFrom('events')
    .select(['id', 'type', 'actor_kind', 'actor_id', 'data'])
    .where('seq', '>', before)
    .orderBy('seq')
    .execute();
}

async function auditOf(db: DatabaseHandle['db'], events: EventRow[]) {
  if (events.length === 0) return [];
  return db
    .selectFrom('audit_log')
    .selectAll()
    .where(
      'event_id',
      'in',
      events.map((e) => e.id),
    )
    .orderBy('seq')
    .execute();
}

describeEachDatabase('events from every write path', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'paths-secret-of-at-least-32-characters' });
  const upstream = useUpstream();
  const db = () => t.database.db;

  it('admin API: a provider from creation to deletion, a user disabled and enabled, the whitelist', async () => {
    const userId = freshUserId();
    const name = uniqueProviderName();
    const ip = freshIp();
    const events = await eventsOf(db(), async () => {
      const user = expectStatus(await t.admin('POST', '/users', { user_id: userId }), 201).json<{
        user_hash: string;
      }>();
      const provider = expectStatus(
        await t.admin('POST', '/providers', {
          owner_hash: user.user_hash,
          provider_name: name,
          provider_url: `https://${name}.example.com`,
        }),
        201,
      ).json<{ provider_hash: string; api_token: string }>();
      const hash = provider.provider_hash;
      expectStatus(await t.admin('PATCH', `/providers/${hash}`, { provider_url: `https://${name}.example.org` }), 200);
      expectStatus(await t.admin('POST', `/providers/${hash}/refresh-token`), 200);
      expectStatus(await t.admin('DELETE', `/providers/${hash}`), 204);
      expectStatus(await t.admin('PATCH', `/users/${userId}`, { is_active: false }), 200);
      expectStatus(await t.admin('PATCH', `/users/${userId}`, { is_active: true }), 200);
      expectStatus(await t.admin('POST', '/whitelist', { ip_address: ip }), 201);
      expectStatus(await t.admin('DELETE', `/whitelist/${ip}`), 200);
    });
    expect(events.map((e) => [e.type, e.actor_kind, e.actor_id])).toEqual(
      [
        'user.created',
        'provider.created',
        'provider.updated',
        'provider.token_refreshed',
        'provider.deleted',
        'user.disabled',
        'user.enabled',
        'whitelist.changed',
        'whitelist.changed',
      ].map((type) => [type, 'admin', 'api']),
    );
    expect(JSON.parse(events[2]!.data)).toMatchObject({ provider_name: name, changed: ['provider_url'] });
    expect(JSON.parse(events[8]!.data)).toEqual({ ip_address: ip, added: false });
    const audit = await auditOf(db(), events);
    expect(audit.map((a) => [a.action, a.target])).toEqual([
      ['user.create', `user:${userId}`],
      ['provider.create', `provider:${name}`],
      ['provider.update', `provider:${name}`],
      ['provider.refresh_token', `provider:${name}`],
      ['provider.delete', `provider:${name}`],
      ['user.disable', `user:${userId}`],
      ['user.enable', `user:${userId}`],
      ['whitelist.change', `whitelist:${ip}`],
      ['whitelist.change', `whitelist:${ip}`],
    ]);
    expect(JSON.stringify(events)).not.toMatch(/api_token/);
  });

  it('admin API: format rules, templates and format settings are settings.changed', async () => {
    const template = expectStatus(await t.admin('GET', '/templates/sing-box'), 200).json<{ template: string }>();
    const rules = [{ id: 'tool', header: 'user-agent', match: 'prefix', value: 'tool', result: 'plain' }];
    const events = await eventsOf(db(), async () => {
      expectStatus(await t.admin('PUT', '/format-rules', { rules }), 200);
      expectStatus(await t.admin('DELETE', '/format-rules'), 200);
      const changed = template.template.replace('"warn"', '"error"');
      expectStatus(await t.admin('PUT', '/templates/sing-box', { template: changed }), 200);
      expectStatus(await t.admin('DELETE', '/templates/sing-box'), 200);
      expectStatus(await t.admin('PUT', '/format-settings', { xray_allow_insecure: true }), 200);
      expectStatus(await t.admin('PUT', '/format-settings', { xray_allow_insecure: false }), 200);
    });
    expect(events.map((e) => [e.type, e.actor_kind, JSON.parse(e.data) as unknown])).toEqual([
      ['settings.changed', 'admin', { setting: 'rules', rules: 1 }],
      ['settings.changed', 'admin', { setting: 'rules', restored_default: true }],
      ['settings.changed', 'admin', { setting: 'template', format: 'sing-box' }],
      ['settings.changed', 'admin', { setting: 'template', format: 'sing-box', restored_default: true }],
      ['settings.changed', 'admin', { setting: 'format_settings', xray_allow_insecure: true }],
      ['settings.changed', 'admin', { setting: 'format_settings', xray_allow_insecure: false }],
    ]);
    const audit = await auditOf(db(), events);
    expect(audit.map((a) => a.target)).toEqual([
      'settings:rules',
      'settings:rules',
      'settings:template:sing-box',
      'settings:template:sing-box',
      'settings:format-settings',
      'settings:format-settings',
    ]);
  });

  it('a user rejecting a provider: connection.rejected, actor the user', async () => {
    const user = await t.newUser();
    const provider = await t.newProvider();
    await requestAccess(t, provider, user.userId);
    const events = await eventsOf(db(), async () =>
      expectStatus(await decide(t, user.token, provider.name, 'reject'), 200),
    );
    expect(events.map((e) => [e.type, e.actor_kind, e.actor_id])).toEqual([
      ['connection.rejected', 'user', String(user.userId)],
    ]);
    expect(JSON.parse(events[0]!.data)).toEqual({
      user_id: user.userId,
      provider_name: provider.name,
      // A rejected request is deleted (docs/api.md): no status remains.
      status: null,
      previous_status: 'pending',
    });
  });

  it('an admin approving and rejecting on behalf of users: actor admin, audited on the connection', async () => {
    const [first, second] = [await t.newUser(), await t.newUser()];
    const provider = await t.newProvider();
    await requestAccess(t, provider, first.userId);
    await requestAccess(t, provider, second.userId);
    const events = await eventsOf(db(), async () => {
      expectStatus(await t.admin('POST', `/users/${first.userId}/providers/${provider.name}/approve`), 200);
      expectStatus(await t.admin('POST', `/users/${second.userId}/providers/${provider.name}/reject`), 200);
    });
    expect(events.map((e) => [e.type, e.actor_kind, e.actor_id])).toEqual([
      ['connection.approved', 'admin', 'api'],
      ['connection.rejected', 'admin', 'api'],
    ]);
    const audit = await auditOf(db(), events);
    expect(audit.map((a) => [a.action, a.target, a.user_id === null ? null : Number(a.user_id)])).toEqual([
      ['connection.approve', `connection:${first.userId}:${provider.name}`, first.userId],
      ['connection.reject', `connection:${second.userId}:${provider.name}`, second.userId],
    ]);
  });

  it('the background refresher: source.failing and source.recovered, actor system/refresher, not audited', async () => {
    const user = await t.newUser();
    const url = upstream.current.add(`trojan://pw@first.example.com:443#a\n`);
    await subsApi(t).create([url], user.token);
    upstream.current.set(url, (_req, res) => void res.writeHead(503).end('down'));
    const refreshAll = async () => {
      await db().updateTable('external_cache').set({ last_attempt_at: '2000-01-01T00:00:00.000Z' }).execute();
      await t.context.external.refreshDue(60, 60);
    };
    const failing = await eventsOf(db(), async () => {
      for (let i = 0; i < 3; i += 1) await refreshAll();
    });
    upstream.current.set(url, `trojan://pw@second.example.com:443#b\n`);
    const recovered = await eventsOf(db(), refreshAll);
    const ours = (events: EventRow[]) => events.filter((e) => e.type.startsWith('source.'));
    expect(ours(failing).map((e) => [e.type, e.actor_kind, e.actor_id])).toEqual([
      ['source.failing', 'system', 'refresher'],
    ]);
    expect(JSON.parse(ours(failing)[0]!.data)).toMatchObject({ failures: 3, reason: 'http_status' });
    expect(ours(recovered).map((e) => [e.type, e.actor_kind, e.actor_id])).toEqual([
      ['source.recovered', 'system', 'refresher'],
    ]);
    expect(await auditOf(db(), [...ours(failing), ...ours(recovered)])).toEqual([]);
  });

  describeAutomaticBans(kind);
  describeCli(kind);
});

function describeAutomaticBans(kind: DatabaseKind): void {
  const limited = useTestApp(kind, {
    ADMIN_SECRET: 'paths-secret-of-at-least-32-characters',
    RATE_LIMIT_PUBLIC_PER_MIN: '1',
    AUTO_BAN_VIOLATIONS: '2',
  });
  it('an automatic ban: ban.created, actor system/abuse, an event but no audit entry', async () => {
    const ip = freshIp();
    const events = await eventsOf(limited.database.db, async () => {
      for (let i = 0; i < 3; i += 1) await limited.call('GET', '/sub/none', { ip });
      expect((await limited.call('GET', '/sub/none', { ip })).statusCode).toBe(403);
    });
    expect(events.map((e) => [e.type, e.actor_kind, e.actor_id])).toEqual([['ban.created', 'system', 'abuse']]);
    expect(JSON.parse(events[0]!.data)).toMatchObject({ ip_address: ip });
    expect(await auditOf(limited.database.db, events)).toEqual([]);
  });
}

function describeCli(kind: DatabaseKind): void {
  let scratch: { url: string; cleanup: () => Promise<void> };
  let database: DatabaseHandle;
  beforeAll(async () => {
    scratch = await scratchDatabaseUrl(kind);
    database = createDatabase(scratch.url);
    await migrateToLatest(database);
  });
  afterAll(async () => {
    await database?.close();
    await scratch?.cleanup();
  });

  it('the admin CLI on the database: users and providers, actor admin/cli, audited without an address', async () => {
    const cli = async (...args: string[]) => {
      const result = await runCli(args, { DATABASE_URL: scratch.url });
      expect(result.code, result.stderr).toBe(0);
      return result.stdout.trim();
    };
    const userId = freshUserId();
    const name = uniqueProviderName();
    const events = await eventsOf(database.db, async () => {
      await cli('users', 'create', String(userId));
      await cli('users', 'token', String(userId));
      await cli('providers', 'create', String(userId), name);
    });
    expect(events.map((e) => [e.type, e.actor_kind, e.actor_id])).toEqual([
      ['user.created', 'admin', 'cli'],
      ['user.token_refreshed', 'admin', 'cli'],
      ['provider.created', 'admin', 'cli'],
    ]);
    const audit = await auditOf(database.db, events);
    expect(audit.map((a) => [a.action, a.actor_kind, a.actor_id, a.client_ip, a.request_id])).toEqual([
      ['user.create', 'admin', 'cli', null, null],
      ['user.refresh_token', 'admin', 'cli', null, null],
      ['provider.create', 'admin', 'cli', null, null],
    ]);
  });
}
