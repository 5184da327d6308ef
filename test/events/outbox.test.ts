// Events (docs/webhooks.md): every accepted change writes its event in the same transaction, with its actor; a refused change writes none.
import { expect, it } from 'vitest';
import { describeEachDatabase, useTestApp, type TestApp } from '../support/harness.js';
import { approvedPair, decide, PROVIDERS, requestAccess, subsApi, unique, vlessUri } from '../support/factories.js';
import { expectStatus } from '../support/expect.js';
import { useUpstream } from '../support/upstream-server.js';
import { subscriptionId } from '../../src/events/subjects.js';

interface EventRow {
  id: string;
  type: string;
  actor_kind: string;
  actor_id: string;
  user_id: number | null;
  provider_hash: string | null;
  data: string;
}

async function eventsAfter(t: TestApp, seq: number): Promise<EventRow[]> {
  return t.database.db
    .selectFrom('events')
    .select(['id', 'type', 'actor_kind', 'actor_id', 'user_id', 'provider_hash', 'data'])
    .where('seq', '>', seq)
    .orderBy('seq')
    .execute();
}

async function lastSeq(t: TestApp): Promise<number> {
  const row = await t.database.db
    .selectFrom('events')
    .select((eb) => eb.fn.max('seq').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0);
}

/** Runs `work` and answers the events it wrote. */
async function eventsOf(t: TestApp, work: () => Promise<unknown>): Promise<EventRow[]> {
  const before = await lastSeq(t);
  await work();
  return eventsAfter(t, before);
}

describeEachDatabase('events outbox', (kind) => {
  const t = useTestApp(kind, {
    ADMIN_SECRET: 'events-secret-of-at-least-32-characters',
    MAX_SUBSCRIPTIONS_PER_USER: '2',
  });
  const upstream = useUpstream();

  it('a user creating, changing, rotating and deleting a subscription writes one event each, actor the user', async () => {
    const user = await t.newUser();
    const api = subsApi(t);
    let token = '';
    const created = await eventsOf(t, async () => {
      token = (await api.create([vlessUri()], user.token)).token;
    });
    expect(created.map((e) => [e.type, e.actor_kind, e.actor_id])).toEqual([
      ['subscription.created', 'user', String(user.userId)],
    ]);
    expect(JSON.parse(created[0]!.data)).toMatchObject({
      subscription_id: subscriptionId(token),
      user_id: user.userId,
      provider_name: null,
      sources: 1,
    });
    const patched = await eventsOf(t, () =>
      t.call('PATCH', `/api/v1/subs/${token}`, { token: user.token, body: { description: 'x' } }),
    );
    expect(patched.map((e) => e.type)).toEqual(['subscription.updated']);
    expect(JSON.parse(patched[0]!.data)).toMatchObject({ changed: ['description'] });
    // A source's change names the fields the request changed, not the stored forms a comment rewrites.
    const source = (await api.get(user.token, token)).sources[0]!;
    const sourcePatched = await eventsOf(t, () =>
      t.call('PATCH', `/api/v1/subs/${token}/config`, {
        token: user.token,
        body: { config_id: source.id, comment: 'renamed', is_hidden: true },
      }),
    );
    expect(sourcePatched.map((e) => e.type)).toEqual(['subscription.updated']);
    expect(JSON.parse(sourcePatched[0]!.data)).toMatchObject({
      source_id: source.id,
      changed: ['comment', 'is_hidden'],
    });
    let rotated = '';
    const rotation = await eventsOf(t, async () => {
      rotated = expectStatus(await t.call('POST', `/api/v1/subs/${token}/rotate`, { token: user.token }), 200).json<{
        token: string;
      }>().token;
    });
    expect(rotation.map((e) => e.type)).toEqual(['subscription.rotated']);
    expect(JSON.parse(rotation[0]!.data)).toMatchObject({
      subscription_id: subscriptionId(rotated),
      previous_subscription_id: subscriptionId(token),
    });
    const deleted = await eventsOf(t, () => t.call('DELETE', `/api/v1/subs/${rotated}`, { token: user.token }));
    expect(deleted.map((e) => e.type)).toEqual(['subscription.deleted']);
    for (const event of [...created, ...patched, ...rotation, ...deleted]) {
      expect(event.data).not.toContain(token);
      expect(event.data).not.toContain(rotated);
      expect(event.data).not.toContain(user.token);
    }
  });

  it('a refused change writes no event: the limit, a taken name, a failing source list', async () => {
    const user = await t.newUser();
    const api = subsApi(t);
    const first = await api.create([vlessUri()], user.token);
    await api.create([], user.token);
    const refused = await eventsOf(t, async () => {
      const over = await t.call('POST', '/api/v1/subs', {
        token: user.token,
        body: { name: unique('s'), sources: [] },
      });
      expect(over.statusCode).toBe(403);
      const unknown = await api.remove(user.token, first.token, ['0'.repeat(32)]);
      expect(unknown.statusCode).toBe(404);
    });
    expect(refused).toEqual([]);
  });

  it('connections: requested and revoked by the provider, approved by the user, each with its actor', async () => {
    const user = await t.newUser();
    const provider = await t.newProvider();
    const events = await eventsOf(t, async () => {
      await requestAccess(t, provider, user.userId);
      expectStatus(await decide(t, user.token, provider.name, 'approve'), 200);
      expectStatus(await t.call('DELETE', `${PROVIDERS}/${user.userId}`, { token: provider.token }), 200);
    });
    expect(events.map((e) => [e.type, e.actor_kind, e.actor_id, e.user_id, e.provider_hash])).toEqual([
      ['connection.requested', 'provider', provider.name, user.userId, provider.hash],
      ['connection.approved', 'user', String(user.userId), user.userId, provider.hash],
      ['connection.revoked', 'provider', provider.name, user.userId, provider.hash],
    ]);
    expect(JSON.parse(events[1]!.data)).toEqual({
      user_id: user.userId,
      provider_name: provider.name,
      status: 'approved',
      previous_status: 'pending',
    });
  });

  it('a provider managing a subscription is its actor; the event names the provider', async () => {
    const { provider, subs, user } = await approvedPair(t);
    const events = await eventsOf(t, () =>
      t.call('POST', subs, { token: provider.token, body: { name: unique('p'), sources: [vlessUri()] } }),
    );
    expect(events.map((e) => [e.type, e.actor_kind, e.actor_id, e.provider_hash])).toEqual([
      ['subscription.created', 'provider', provider.name, provider.hash],
    ]);
    expect(JSON.parse(events[0]!.data)).toMatchObject({ user_id: user.userId, provider_name: provider.name });
  });

  it('admin writes: users, bans and the whitelist, actor admin', async () => {
    const userId = Math.floor(Math.random() * 1e9) + 1;
    const events = await eventsOf(t, async () => {
      expectStatus(await t.admin('POST', '/users', { user_id: userId }), 201);
      expectStatus(await t.admin('PATCH', `/users/${userId}`, { is_active: false }), 200);
      expectStatus(await t.admin('POST', `/users/${userId}/refresh-token`), 200);
      expectStatus(await t.admin('POST', '/ban', { ip_address: '198.51.100.7' }), 201);
      expectStatus(await t.admin('DELETE', '/ban/198.51.100.7'), 200);
      expectStatus(await t.admin('POST', '/whitelist', { ip_address: '198.51.100.8' }), 201);
      expectStatus(await t.admin('DELETE', `/users/${userId}`), 204);
    });
    expect(events.map((e) => [e.type, e.actor_kind, e.actor_id])).toEqual([
      ['user.created', 'admin', 'api'],
      ['user.disabled', 'admin', 'api'],
      ['user.token_refreshed', 'admin', 'api'],
      ['ban.created', 'admin', 'api'],
      ['ban.deleted', 'admin', 'api'],
      ['whitelist.changed', 'admin', 'api'],
      ['user.deleted', 'admin', 'api'],
    ]);
    for (const event of events) expect(event.data).not.toMatch(/api_token/);
  });

  it('source.failing after 3 failed fetches in a row, source.recovered on the next success; the URL stays out', async () => {
    const user = await t.newUser();
    const url = upstream.current.add(`${vlessUri()}\n`);
    const secretUrl = `${url}?key=hunter2`;
    upstream.current.set(secretUrl, `${vlessUri()}\n`);
    const sub = await subsApi(t).create([secretUrl], user.token);
    upstream.current.set(secretUrl, (_req, res) => void res.writeHead(500).end('down'));
    const refresh = () => t.call('POST', `/api/v1/subs/${sub.token}/refresh`, { token: user.token });
    const failing = await eventsOf(t, async () => {
      for (let i = 0; i < 4; i++) expectStatus(await refresh(), 200);
    });
    expect(failing.map((e) => [e.type, e.actor_kind])).toEqual([['source.failing', 'system']]);
    expect(JSON.parse(failing[0]!.data)).toMatchObject({ host: '127.0.0.1', failures: 3, reason: 'http_status' });
    upstream.current.set(secretUrl, `${vlessUri()}\n`);
    const recovered = await eventsOf(t, async () => expectStatus(await refresh(), 200));
    expect(recovered.map((e) => e.type)).toEqual(['source.recovered']);
    for (const event of [...failing, ...recovered]) expect(event.data).not.toContain('hunter2');
  });
});
