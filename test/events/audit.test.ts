// The audit log (docs/webhooks.md): admin and self-service reads, filters, cursor pages, bad input, retention.
import { expect, it } from 'vitest';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import { approvedPair, freshUserId, ME, subsApi, unique, vlessUri } from '../support/factories.js';
import { expectError, expectStatus } from '../support/expect.js';
import { subscriptionId } from '../../src/events/subjects.js';

interface Entry {
  id: string;
  actor: { kind: string; id: string };
  client_ip: string | null;
  request_id: string | null;
  action: string;
  target: string;
  summary: Record<string, unknown>;
}
interface Page {
  entries: Entry[];
  next_cursor: string | null;
}

describeEachDatabase('audit log', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'audit-secret-of-at-least-32-characters' });
  const audit = async (query: string) => expectStatus(await t.admin('GET', `/audit${query}`), 200).json<Page>();

  it('records a provider changing a user subscription: actor, address, request id, action, target, fields', async () => {
    const { provider, subs, user } = await approvedPair(t);
    const created = await t.call('POST', subs, {
      token: provider.token,
      body: { name: unique('a'), sources: [vlessUri()] },
      ip: '203.0.113.9',
    });
    const token = expectStatus(created, 201).json<{ token: string }>().token;
    const patched = await t.call('PATCH', `${subs}/${token}`, { token: provider.token, body: { name: unique('b') } });
    expectStatus(patched, 200);
    const target = `subscription:${subscriptionId(token)}`;
    const page = await audit(`?target=${encodeURIComponent(target)}`);
    expect(page.entries.map((e) => e.action)).toEqual(['subscription.update', 'subscription.create']);
    expect(page.entries[0]).toMatchObject({
      actor: { kind: 'provider', id: provider.name },
      request_id: patched.headers['x-request-id'],
      summary: { changed: ['name'], user_id: user.userId, provider_name: provider.name },
    });
    expect(page.entries[1]?.client_ip).toBe('203.0.113.9');
    expect(JSON.stringify(page)).not.toContain(token);

    // The user sees both in their own log, without the provider's address or request id.
    const mine = expectStatus(await t.call('GET', `${ME}/audit`, { token: user.token }), 200).json<Page>();
    const about = mine.entries.filter((e) => e.target === target);
    expect(about.map((e) => [e.action, e.actor.kind, e.client_ip, e.request_id])).toEqual([
      ['subscription.update', 'provider', null, null],
      ['subscription.create', 'provider', null, null],
    ]);
  });

  it('filters by actor, action and time; pages newest first with a cursor', async () => {
    const userId = freshUserId();
    expectStatus(await t.admin('POST', '/users', { user_id: userId }), 201);
    for (let i = 0; i < 3; i++) expectStatus(await t.admin('POST', `/users/${userId}/refresh-token`), 200);
    const query = `?actor=admin:api&action=user.refresh_token&target=user:${userId}&limit=2`;
    const first = await audit(query);
    expect(first.entries).toHaveLength(2);
    expect(first.next_cursor).not.toBeNull();
    const second = await audit(`${query}&cursor=${first.next_cursor}`);
    expect(second.entries).toHaveLength(1);
    const ids = [...first.entries, ...second.entries].map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const third = await audit(`${query}&cursor=${second.entries[0]!.id}`);
    expect(third).toEqual({ entries: [], next_cursor: null });
    expect((await audit(`?actor=user&target=user:${userId}`)).entries).toEqual([]);
    expect((await audit(`?target=user:${userId}&until=2000-01-01T00:00:00Z`)).entries).toEqual([]);
    expect((await audit(`?target=user:${userId}&since=2000-01-01T00:00:00Z`)).entries).toHaveLength(4);
  });

  it('answers 400 validation_failed for every bad filter', async () => {
    for (const query of [
      '?actor=robot',
      '?actor=user:',
      '?action=nodot',
      `?target=${'x'.repeat(129)}`,
      '?since=yesterday',
      '?until=2025-13-01',
      '?cursor=abc',
      '?cursor=0',
      '?limit=0',
      '?limit=201',
      '?other=1',
    ]) {
      expectError(await t.admin('GET', `/audit${query}`), 400, 'validation_failed');
    }
    const user = await t.newUser();
    expectError(await t.call('GET', `${ME}/audit?actor=admin`, { token: user.token }), 400, 'validation_failed');
    expectError(await t.call('GET', `${ME}/audit`), 401, 'missing_token');
  });

  it('a user reads only their own entries; the API cannot change them', async () => {
    const [a, b] = [await t.newUser(), await t.newUser()];
    await subsApi(t).create([], a.token);
    const seen = expectStatus(await t.call('GET', `${ME}/audit`, { token: b.token }), 200).json<Page>();
    expect(seen.entries.filter((e) => e.summary['user_id'] === a.userId)).toEqual([]);
    expect((await t.call('DELETE', `${ME}/audit`, { token: a.token })).statusCode).toBe(405);
    expect((await t.admin('DELETE', '/audit')).statusCode).toBe(405);
  });

  it('prunes entries older than AUDIT_RETENTION_DAYS', async () => {
    const userId = freshUserId();
    expectStatus(await t.admin('POST', '/users', { user_id: userId }), 201);
    await t.database.db
      .updateTable('audit_log')
      .set({ created_at: '2000-01-01T00:00:00.000Z' })
      .where('target', '=', `user:${userId}`)
      .execute();
    await t.context.housekeeping.prune();
    expect((await audit(`?target=user:${userId}`)).entries).toEqual([]);
  });
});
