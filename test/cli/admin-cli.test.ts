// `subweave admin ...` end to end: the command, run in-process, signs real HTTP requests to a listening app.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ADMIN_COMMANDS } from '../../src/modules/admin/admin.commands.js';
import { openTestDatabase, startTestApp, testConfig, TEST_BASE_URL, type TestDatabase } from '../support/harness.js';
import { freshUserId, uniqueProviderName } from '../support/factories.js';
import { runCli, type CliResult } from '../support/cli.js';
import { expectEnvelope } from '../support/expect.js';

const SECRET = 'cli-admin-secret-of-at-least-32-characters';

describe('subweave admin CLI', () => {
  let app: FastifyInstance;
  let database: TestDatabase;
  let url = '';

  const admin = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
    runCli(['admin', ...args, '--url', url], { ADMIN_SECRET: SECRET, ...env });
  const json = <T>(result: CliResult): T => {
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as T;
  };

  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
    app = (await startTestApp(testConfig({ ADMIN_SECRET: SECRET }), database.handle)).app;
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    url = address;
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('creates, reads, deactivates and deletes a user', async () => {
    const userId = freshUserId();
    const created = json<{ user_id: number; api_token: string; user_hash: string }>(
      await admin(['users', 'create', String(userId)]),
    );
    expect(created.user_id).toBe(userId);
    expect(created.api_token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const deactivated = json<{ is_active: boolean }>(await admin(['users', 'deactivate', String(userId)]));
    expect(deactivated.is_active).toBe(false);

    const deleted = await admin(['users', 'delete', String(userId)]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toBe('');
  });

  it('reads, replaces and resets the format rules and templates from files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'subweave-cli-'));
    try {
      const rulesFile = join(dir, 'rules.json');
      const rules = [{ id: 'tool', header: 'user-agent', match: 'prefix', value: 'tool', result: 'plain' }];
      writeFileSync(rulesFile, JSON.stringify(rules));
      const set = json<{ rules: Array<{ id: string; enabled: boolean }> }>(
        await admin(['format-rules', 'set', rulesFile]),
      );
      expect(set.rules).toEqual([{ ...rules[0], case_sensitive: false, enabled: true }]);
      expect(json<{ rules: unknown[] }>(await admin(['format-rules', 'get'])).rules).toEqual(set.rules);
      const reset = json<{ rules: Array<{ id: string }> }>(await admin(['format-rules', 'reset']));
      expect(reset.rules[0]?.id).toBe('browser');

      const builtin = json<{ template: string; builtin: boolean }>(await admin(['templates', 'get', 'sing-box']));
      expect(builtin.builtin).toBe(true);
      const templateFile = join(dir, 'sing-box.json');
      writeFileSync(templateFile, builtin.template.replace('"warn"', '"error"'));
      const stored = json<{ builtin: boolean; template: string }>(
        await admin(['templates', 'set', 'sing-box', templateFile]),
      );
      expect(stored).toMatchObject({ builtin: false });
      expect(stored.template).toContain('"error"');
      expect(json<{ builtin: boolean }>(await admin(['templates', 'reset', 'sing-box'])).builtin).toBe(true);

      const broken = join(dir, 'broken.json');
      writeFileSync(broken, '{');
      const refused = await admin(['templates', 'set', 'sing-box', broken]);
      expect(refused.code).toBe(1);
      expectEnvelope(JSON.parse(refused.stderr), 'validation_failed');
      const missing = await admin(['format-rules', 'set', join(dir, 'nope.json')]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('cannot read');
      expect((await admin(['format-rules', 'set', broken])).stderr).toContain('is not JSON');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads and sets the format settings', async () => {
    expect(json(await admin(['format-settings', 'get']))).toEqual({ xray_allow_insecure: false });
    expect(json(await admin(['format-settings', 'set', 'xray_allow_insecure', 'true']))).toEqual({
      xray_allow_insecure: true,
    });
    expect(json(await admin(['format-settings', 'set', 'xray_allow_insecure', 'false']))).toEqual({
      xray_allow_insecure: false,
    });
    const wrong = await admin(['format-settings', 'set', 'xray_allow_insecure', 'yes']);
    expect([wrong.code, wrong.stderr]).toEqual([2, expect.stringContaining('true or false')]);
    expect((await admin(['format-settings', 'set', 'other', 'true'])).stderr).toContain('unknown format setting');
  });

  it('mints a sign-in link whose code signs the user in once', async () => {
    const userId = freshUserId();
    json(await admin(['users', 'create', String(userId)]));
    const link = json<{ url: string; code: string; expires_at: string }>(
      await admin(['users', 'sign-in-link', String(userId)]),
    );
    expect(link.url).toBe(`${TEST_BASE_URL}/app/sign-in#code=${link.code}`);
    const signIn = () => app.inject({ method: 'POST', url: '/api/v1/session', payload: { code: link.code } });
    expect((await signIn()).json()).toMatchObject({ user_id: userId });
    expectEnvelope((await signIn()).json(), 'invalid_sign_in_code');
    const missing = await admin(['users', 'sign-in-link', String(freshUserId())]);
    expect(missing.code).toBe(1);
    expectEnvelope(JSON.parse(missing.stderr), 'user_not_found');
  });

  it('reads and sets the branding, the logo from an image file, and clears a field with an empty value', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'subweave-cli-'));
    try {
      const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>';
      writeFileSync(join(dir, 'logo.svg'), svg);
      writeFileSync(join(dir, 'logo.gif'), 'GIF89a');
      const logo = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
      const set = await admin([
        'branding',
        'set',
        '--service-name',
        'North VPN',
        '--logo',
        join(dir, 'logo.svg'),
        '--accent-color',
        '#0a7d5a',
        '--support-url',
        'https://help.example.com/',
      ]);
      expect(json(set)).toEqual({
        service_name: 'North VPN',
        logo,
        accent_color: '#0a7d5a',
        support_url: 'https://help.example.com/',
      });
      expect(json(await admin(['branding', 'set', '--logo', '', '--support-url', '']))).toMatchObject({
        logo: null,
        support_url: null,
        service_name: 'North VPN',
      });
      expect(json(await admin(['branding', 'get']))).toMatchObject({ service_name: 'North VPN', logo: null });
      const refused = await admin(['branding', 'set', '--accent-color', 'green']);
      expect(refused.code).toBe(1);
      expectEnvelope(JSON.parse(refused.stderr), 'validation_failed');
      const gif = await admin(['branding', 'set', '--logo', join(dir, 'logo.gif')]);
      expect(gif.code).toBe(2);
      expect(gif.stderr).toContain('--logo must name a .png, .jpg, .webp or .svg file');
      const missing = await admin(['branding', 'set', '--logo', join(dir, 'absent.png')]);
      expect([missing.code, missing.stderr.includes('cannot read')]).toEqual([2, true]);
      expect((await admin(['branding', 'set'])).code).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints the error envelope on stderr and exits 1 when the server refuses', async () => {
    const [missing, wrongKey] = await Promise.all([
      admin(['users', 'get', String(freshUserId())]),
      admin(['users', 'get', '1'], { ADMIN_SECRET: 'not-the-secret-of-at-least-32-characters' }),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expectEnvelope(JSON.parse(missing.stderr), 'user_not_found');

    expect(wrongKey.code).toBe(1);
    expectEnvelope(JSON.parse(wrongKey.stderr), 'invalid_signature');
  });

  it('creates a provider from a user_hash and finds it by name', async () => {
    const owner = json<{ user_id: number; user_hash: string }>(await admin(['users', 'create', String(freshUserId())]));
    const name = uniqueProviderName();
    const provider = json<{ provider_hash: string; api_token: string }>(
      await admin(['providers', 'create', owner.user_hash, name, 'https://bot.example.com']),
    );
    expect(provider.api_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const found = json<{ provider_hash: string; owner_id: number }>(await admin(['providers', 'get-by-name', name]));
    expect(found).toMatchObject({ provider_hash: provider.provider_hash, owner_id: owner.user_id });
  });

  it('bans a CIDR range, reads it back through a percent-encoded path, and lifts it', async () => {
    const banned = json<{ ip_address: string }>(await admin(['ban', 'add', '198.51.100.0/24', '--duration', '600']));
    expect(banned.ip_address).toBe('198.51.100.0/24');
    expect(json<{ is_banned: boolean }>(await admin(['ban', 'get', '198.51.100.0/24'])).is_banned).toBe(true);
    expect(json<{ was_banned: boolean }>(await admin(['ban', 'remove', '198.51.100.0/24'])).was_banned).toBe(true);
  });

  it('passes stats options as the query string', async () => {
    const [day, refused] = await Promise.all([
      admin(['stats', '--period', 'day']),
      admin(['stats', '--period', 'day', '--start', '2025-01-01']),
    ]);
    const stats = json<{ period: { start: string; end: string } }>(day);
    expect(Date.parse(stats.period.end) - Date.parse(stats.period.start)).toBe(24 * 60 * 60 * 1000);
    expect(refused.code).toBe(1);
    expectEnvelope(JSON.parse(refused.stderr), 'validation_failed');
  });

  it('reads the audit log with its filters', async () => {
    const userId = freshUserId();
    json(await admin(['users', 'create', String(userId)]));
    const page = json<{ entries: Array<{ action: string; actor: { kind: string } }>; next_cursor: string | null }>(
      await admin(['audit', '--target', `user:${userId}`, '--action', 'user.create', '--limit', '5']),
    );
    expect(page.entries.map((e) => [e.action, e.actor.kind])).toEqual([['user.create', 'admin']]);
    const refused = await admin(['audit', '--limit', '0']);
    expect(refused.code).toBe(1);
    expectEnvelope(JSON.parse(refused.stderr), 'validation_failed');
  });

  it('lists users by id prefix and status', async () => {
    const userId = freshUserId();
    json(await admin(['users', 'create', String(userId)]));
    const page = json<{ users: Array<{ user_id: number; is_active: boolean }>; next_cursor: string | null }>(
      await admin(['users', 'list', '--search', String(userId), '--status', 'active', '--limit', '5']),
    );
    expect(page.users.map((u) => [u.user_id, u.is_active])).toEqual([[userId, true]]);
    const refused = await admin(['users', 'list', '--status', 'gone']);
    expect(refused.code).toBe(1);
    expectEnvelope(JSON.parse(refused.stderr), 'validation_failed');
  });

  it('manages webhook endpoints', async () => {
    const created = json<{ id: string; secret: string; events: string[] }>(
      await admin(['webhooks', 'create', 'http://127.0.0.1:9/hook', '--events', 'user.created,user.deleted']),
    );
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.events).toEqual(['user.created', 'user.deleted']);
    const updated = json<{ url: string; enabled: boolean }>(
      await admin([
        'webhooks',
        'update',
        created.id,
        '--endpoint-url',
        'http://127.0.0.1:9/other',
        '--enabled',
        'false',
      ]),
    );
    expect(updated).toMatchObject({ url: 'http://127.0.0.1:9/other', enabled: false });
    const test = json<{ delivery_id: string }>(await admin(['webhooks', 'test', created.id]));
    const log = json<Array<{ id: string }>>(await admin(['webhooks', 'deliveries', created.id, '--limit', '5']));
    expect(log.map((d) => d.id)).toEqual([test.delivery_id]);
    expect((await admin(['webhooks', 'delete', created.id])).code).toBe(0);
    const refused = await admin(['webhooks', 'get', created.id]);
    expect(refused.code).toBe(1);
    expectEnvelope(JSON.parse(refused.stderr), 'webhook_not_found');
  });

  it('exits 2 on usage errors without calling the server', async () => {
    const cases = [
      ['users', 'get', 'abc'],
      ['users', 'frobnicate', '1'],
      ['users', 'get'],
      ['providers', 'update', 'x'],
    ];
    const results = await Promise.all(cases.map((args) => admin(args)));
    results.forEach((result, i) => {
      expect(result.code, cases[i]?.join(' ')).toBe(2);
      expect(result.stderr).toContain('subweave admin:');
    });
  });

  it('--help lists every verb with an example', async () => {
    const result = await admin(['--help']);
    expect(result.code).toBe(0);
    for (const command of ADMIN_COMMANDS) {
      expect(result.stdout).toContain(command.verb);
      expect(result.stdout).toContain(`subweave admin ${command.example}`);
    }
  });
});
