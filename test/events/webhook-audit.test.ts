// The audit entries of webhook endpoint management (docs/webhooks.md): every write through the admin API, the
// provider API and `subweave admin webhooks`, with actor, address, request id and changed fields, never a secret.
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, useTestApp, type TestApp } from '../support/harness.js';
import { ME, PROVIDERS, uniqueProviderName } from '../support/factories.js';
import { expectStatus } from '../support/expect.js';
import { runCli } from '../support/cli.js';

const SECRET = 'webhook-audit-secret-of-at-least-32-characters';

interface Entry {
  actor: { kind: string; id: string };
  client_ip: string | null;
  request_id: string | null;
  action: string;
  target: string;
  event_id: string | null;
  summary: Record<string, unknown>;
}

async function entriesFor(t: TestApp, id: string): Promise<Entry[]> {
  const page = expectStatus(await t.admin('GET', `/audit?target=webhook:${id}`), 200).json<{ entries: Entry[] }>();
  return [...page.entries].reverse();
}

describeEachDatabase('webhook endpoint audit', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: SECRET, ADMIN_ALLOWED_IPS: '127.0.0.1,::1,198.51.100.7' });

  it('records every admin API write: create, update, rotate-secret, test, redeliver, delete', async () => {
    const ip = '198.51.100.7';
    const admin = (method: string, path: string, body?: unknown) => t.admin(method, path, body, { remoteAddress: ip });
    const created = expectStatus(
      await admin('POST', '/webhooks', {
        url: 'http://127.0.0.1:9/hook?token=receiver-token',
        events: ['user.created'],
        description: 'crm',
      }),
      201,
    ).json<{ id: string; secret: string }>();
    const id = created.id;
    const patched = await admin('PATCH', `/webhooks/${id}`, { events: ['*'], enabled: false, description: 'x' });
    expectStatus(patched, 200);
    const rotated = expectStatus(await admin('POST', `/webhooks/${id}/rotate-secret`), 200).json<{ secret: string }>();
    const test = expectStatus(await admin('POST', `/webhooks/${id}/test`), 202).json<{
      event_id: string;
      delivery_id: string;
    }>();
    expectStatus(await admin('POST', `/webhooks/${id}/deliveries/${test.delivery_id}/redeliver`), 202);
    expectStatus(await admin('DELETE', `/webhooks/${id}`), 204);

    const entries = await entriesFor(t, id);
    expect(entries.map((e) => e.action)).toEqual([
      'webhook.create',
      'webhook.update',
      'webhook.rotate_secret',
      'webhook.test',
      'webhook.redeliver',
      'webhook.delete',
    ]);
    for (const entry of entries) {
      expect(entry).toMatchObject({ actor: { kind: 'admin', id: 'api' }, client_ip: ip, target: `webhook:${id}` });
      expect(entry.request_id).toMatch(/.+/);
      expect(entry.summary['webhook_id']).toBe(id);
    }
    expect(entries[0]!.summary).toEqual({
      webhook_id: id,
      url_host: '127.0.0.1:9',
      events: ['user.created'],
      enabled: true,
    });
    expect(entries[1]).toMatchObject({
      request_id: patched.headers['x-request-id'],
      event_id: null,
      summary: { changed: ['events', 'description', 'enabled'], events: ['*'], enabled: false },
    });
    expect(entries[3]!.event_id).toBe(test.event_id);
    expect(entries[4]!.summary).toEqual({ webhook_id: id, delivery_id: test.delivery_id });
    const text = JSON.stringify(entries);
    for (const secret of [created.secret, rotated.secret, 'receiver-token', '/hook'])
      expect(text).not.toContain(secret);
  });

  it('a write that fails leaves no entry', async () => {
    const before = expectStatus(await t.admin('GET', '/audit?action=webhook.delete'), 200).json<{
      entries: Entry[];
    }>();
    expect((await t.admin('DELETE', '/webhooks/wh_missing')).statusCode).toBe(404);
    expect((await t.admin('PATCH', '/webhooks/wh_missing', { enabled: true })).statusCode).toBe(404);
    expect((await t.admin('POST', '/webhooks', { url: 'gopher://x/', events: ['*'] })).statusCode).toBe(400);
    const after = expectStatus(await t.admin('GET', '/audit?action=webhook.delete'), 200).json<{
      entries: Entry[];
    }>();
    expect(after.entries).toEqual(before.entries);
    const missing = expectStatus(await t.admin('GET', '/audit?target=webhook:wh_missing'), 200).json<{
      entries: Entry[];
    }>();
    expect(missing.entries).toEqual([]);
  });

  it("records a provider's writes on its own endpoints for admins, not in its owner's /me/audit", async () => {
    const owner = await t.newUser();
    const name = uniqueProviderName();
    const made = await t.providers.create({
      owner_id: owner.userId,
      provider_name: name,
      provider_url: `https://${name}.example.com`,
    });
    const provider = { name, token: made.api_token };
    const call = (method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) =>
      t.call(method, `${PROVIDERS}/webhooks${path}`, { token: provider.token, ip: '203.0.113.40', body });
    const created = expectStatus(await call('POST', '', { url: 'http://127.0.0.1:9/p', events: ['*'] }), 201).json<{
      id: string;
      secret: string;
    }>();
    const id = created.id;
    expectStatus(await call('PATCH', `/${id}`, { url: 'http://127.0.0.2:9/q' }), 200);
    expectStatus(await call('POST', `/${id}/rotate-secret`), 200);
    const test = expectStatus(await call('POST', `/${id}/test`), 202).json<{ delivery_id: string }>();
    expectStatus(await call('POST', `/${id}/deliveries/${test.delivery_id}/redeliver`), 202);
    expectStatus(await call('DELETE', `/${id}`), 204);

    const entries = await entriesFor(t, id);
    expect(entries.map((e) => [e.action, e.actor.kind, e.actor.id, e.client_ip])).toEqual(
      [
        'webhook.create',
        'webhook.update',
        'webhook.rotate_secret',
        'webhook.test',
        'webhook.redeliver',
        'webhook.delete',
      ].map((action) => [action, 'provider', provider.name, '203.0.113.40']),
    );
    expect(entries[1]!.summary).toEqual({ webhook_id: id, changed: ['url'], url_host: '127.0.0.2:9' });
    expect(JSON.stringify(entries)).not.toContain(created.secret);
    const byProvider = expectStatus(await t.admin('GET', `/audit?actor=provider:${provider.name}`), 200).json<{
      entries: Entry[];
    }>();
    expect(byProvider.entries.filter((e) => e.target === `webhook:${id}`)).toHaveLength(6);

    // The provider's owner is a user, but endpoint management concerns no user's account.
    const mine = expectStatus(await t.call('GET', `${ME}/audit?limit=200`, { token: owner.token }), 200);
    expect(mine.json<{ entries: Entry[] }>().entries.filter((e) => e.target.startsWith('webhook:'))).toEqual([]);
  });

  describeCli(t);
});

function describeCli(t: TestApp): void {
  let url = '';
  beforeAll(async () => {
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('records `subweave admin webhooks ...` as the admin API, with the CLI machine as client address', async () => {
    const cli = async (args: string[]) => {
      const result = await runCli(['admin', 'webhooks', ...args, '--url', url], { ADMIN_SECRET: SECRET });
      expect(result.code, result.stderr).toBe(0);
      return result.stdout === '' ? null : (JSON.parse(result.stdout) as Record<string, string>);
    };
    const created = (await cli(['create', 'http://127.0.0.1:9/cli', '--events', 'user.created']))!;
    const id = created['id'] as string;
    await cli(['update', id, '--enabled', 'false']);
    await cli(['rotate-secret', id]);
    const test = (await cli(['test', id]))!;
    await cli(['redeliver', id, test['delivery_id'] as string]);
    await cli(['delete', id]);
    const entries = await entriesFor(t, id);
    expect(entries.map((e) => [e.action, e.actor.kind, e.actor.id, e.client_ip])).toEqual(
      [
        'webhook.create',
        'webhook.update',
        'webhook.rotate_secret',
        'webhook.test',
        'webhook.redeliver',
        'webhook.delete',
      ].map((action) => [action, 'admin', 'api', '127.0.0.1']),
    );
    expect(entries[1]!.summary).toEqual({ webhook_id: id, changed: ['enabled'], enabled: false });
  });
}
