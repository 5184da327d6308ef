// Webhooks (docs/webhooks.md): endpoints of admins and providers, signed deliveries verified with the standardwebhooks
// package, retries, filters, provider isolation, rotation, bad input, and two instances sharing one queue.
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeEachDatabase,
  scratchDatabaseUrl,
  testConfig,
  useTestApp,
  type DatabaseKind,
  type TestApp,
} from '../support/harness.js';
import { PROVIDERS, requestAccess, decide, subsApi, vlessUri } from '../support/factories.js';
import { expectError, expectStatus } from '../support/expect.js';
import { waitFor, withClockAhead } from '../support/time.js';
import { startReceiver, verifyDelivery, type WebhookReceiver } from '../support/webhook-receiver.js';
import { createDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { inTransaction } from '../../src/db/executor.js';
import { createContext } from '../../src/context.js';
import { writeEvents } from '../../src/events/outbox.js';
import { userEvent } from '../../src/events/subjects.js';
import { claimDue } from '../../src/webhooks/messages.store.js';

const WAIT_MS = 15_000;
const FAST = { WEBHOOK_RETRY_DELAYS: '0.05,0.05,0.05', WEBHOOK_POLL_MS: '20' };

interface Created {
  id: string;
  secret: string;
}

interface DeliveryView {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: Array<{ status_code: number | null; response: string }>;
}

let paths = 0;
const freshPath = (name: string) => `/${name}-${++paths}`;

async function adminEndpoint(t: TestApp, url: string, events: string[] = ['*'], extra = {}): Promise<Created> {
  return expectStatus(await t.admin('POST', '/webhooks', { url, events, ...extra }), 201).json<Created>();
}

async function deliveries(t: TestApp, id: string): Promise<DeliveryView[]> {
  return expectStatus(await t.admin('GET', `/webhooks/${id}/deliveries`), 200).json<DeliveryView[]>();
}

async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  expect(await waitFor(WAIT_MS, check)).toBe(true);
}

describeEachDatabase('webhooks', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'webhook-secret-of-at-least-32-characters', ...FAST });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    t.context.webhookDelivery.start();
  });
  afterAll(async () => {
    await t.context.webhookDelivery.stop();
    await receiver.close();
  });

  it('delivers each event signed per Standard Webhooks, only the types an endpoint asked for', async () => {
    const createdPath = freshPath('created');
    const deletedPath = freshPath('deleted');
    const created = await adminEndpoint(t, receiver.origin + createdPath, ['subscription.created']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const deleted = await adminEndpoint(t, receiver.origin + deletedPath, ['subscription.deleted']);
    const user = await t.newUser();
    const { token } = await subsApi(t).create([vlessUri()], user.token);
    expectStatus(await t.call('DELETE', `/api/v1/subs/${token}`, { token: user.token }), 204);

    await eventually(() => receiver.at(createdPath).length >= 1 && receiver.at(deletedPath).length >= 1);
    const [first] = receiver.at(createdPath);
    expect(first!.headers['content-type']).toBe('application/json');
    const body = verifyDelivery(first!, created.secret);
    expect(body).toMatchObject({ type: 'subscription.created', data: { user_id: user.userId } });
    expect(Object.keys(body).sort()).toEqual(['data', 'timestamp', 'type']);
    expect(verifyDelivery(receiver.at(deletedPath)[0]!, deleted.secret).type).toBe('subscription.deleted');
    expect(() => verifyDelivery(first!, deleted.secret)).toThrow();

    // The filter decides which messages exist at all: each log holds only its own type.
    expect((await deliveries(t, created.id)).map((d) => d.event_type)).toEqual(['subscription.created']);
    expect((await deliveries(t, deleted.id)).map((d) => d.event_type)).toEqual(['subscription.deleted']);
  });

  it('retries a failed delivery with the same webhook-id, logs every attempt, and redelivers on request', async () => {
    const path = freshPath('flaky');
    receiver.answer(path, (attempt) => (attempt === 1 ? 500 : 200));
    const endpoint = await adminEndpoint(t, receiver.origin + path);
    const test = expectStatus(await t.admin('POST', `/webhooks/${endpoint.id}/test`), 202).json<{
      event_id: string;
      delivery_id: string;
    }>();
    await eventually(async () => (await deliveries(t, endpoint.id))[0]?.status === 'delivered');
    const hits = receiver.at(path);
    expect(hits.map((hit) => hit.headers['webhook-id'])).toEqual([test.event_id, test.event_id]);
    for (const hit of hits) expect(verifyDelivery(hit, endpoint.secret).type).toBe('webhook.test');
    const [log] = await deliveries(t, endpoint.id);
    expect(log).toMatchObject({ id: test.delivery_id, event_id: test.event_id, status: 'delivered' });
    expect(log!.attempts.map((a) => [a.status_code, a.response])).toEqual([
      [500, 'try again'],
      [200, 'ok'],
    ]);

    expectStatus(await t.admin('POST', `/webhooks/${endpoint.id}/deliveries/${test.delivery_id}/redeliver`), 202);
    await eventually(() => receiver.at(path).length === 3);
    expect(receiver.at(path)[2]!.headers['webhook-id']).toBe(test.event_id);
    expectError(
      await t.admin('POST', `/webhooks/${endpoint.id}/deliveries/msg_nope/redeliver`),
      404,
      'webhook_not_found',
    );
  });

  it('marks a message failed after the configured retries', async () => {
    const path = freshPath('down');
    receiver.answer(path, () => 503);
    const endpoint = await adminEndpoint(t, receiver.origin + path);
    expectStatus(await t.admin('POST', `/webhooks/${endpoint.id}/test`), 202);
    await eventually(async () => (await deliveries(t, endpoint.id))[0]?.status === 'failed');
    expect((await deliveries(t, endpoint.id))[0]!.attempts).toHaveLength(4);
    expect(receiver.at(path)).toHaveLength(4);
  });

  it('signs with the old and the new secret after a rotation', async () => {
    const path = freshPath('rotated');
    const endpoint = await adminEndpoint(t, receiver.origin + path);
    const rotated = expectStatus(await t.admin('POST', `/webhooks/${endpoint.id}/rotate-secret`), 200).json<{
      secret: string;
    }>();
    expect(rotated.secret).not.toBe(endpoint.secret);
    expectStatus(await t.admin('POST', `/webhooks/${endpoint.id}/test`), 202);
    await eventually(() => receiver.at(path).length === 1);
    const [hit] = receiver.at(path);
    expect(String(hit!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyDelivery(hit!, rotated.secret).type).toBe('webhook.test');
    expect(verifyDelivery(hit!, endpoint.secret).type).toBe('webhook.test');
  });

  it('delivers nothing to a disabled endpoint', async () => {
    const offPath = freshPath('off');
    const onPath = freshPath('on');
    const off = await adminEndpoint(t, receiver.origin + offPath, ['*'], { enabled: false });
    const on = await adminEndpoint(t, receiver.origin + onPath, ['subscription.created']);
    const user = await t.newUser();
    await subsApi(t).create([vlessUri()], user.token);
    await eventually(() => receiver.at(onPath).length >= 1);
    expect(await deliveries(t, off.id)).toEqual([]);
    expect(receiver.at(offPath)).toEqual([]);
    expect(expectStatus(await t.admin('GET', `/webhooks/${on.id}`), 200).json()).toMatchObject({ enabled: true });
    const patched = expectStatus(await t.admin('PATCH', `/webhooks/${off.id}`, { enabled: true }), 200).json();
    expect(patched).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it('gives a provider only the events of its own connections and approved users', async () => {
    const pathA = freshPath('provider-a');
    const pathB = freshPath('provider-b');
    const providerA = await t.newProvider();
    const providerB = await t.newProvider();
    const hookFor = async (token: string, path: string) =>
      expectStatus(
        await t.call('POST', `${PROVIDERS}/webhooks`, { token, body: { url: receiver.origin + path, events: ['*'] } }),
        201,
      ).json<Created>();
    const hookA = await hookFor(providerA.token, pathA);
    const hookB = await hookFor(providerB.token, pathB);
    const userA = await t.newUser();
    const userB = await t.newUser();
    await requestAccess(t, providerA, userA.userId);
    expectStatus(await decide(t, userA.token, providerA.name, 'approve'), 200);
    await requestAccess(t, providerB, userB.userId);
    expectStatus(await decide(t, userB.token, providerB.name, 'approve'), 200);
    await subsApi(t).create([vlessUri()], userA.token);
    await subsApi(t).create([vlessUri()], userB.token);

    const types = (path: string, secret: string) => receiver.at(path).map((hit) => verifyDelivery(hit, secret));
    await eventually(
      () =>
        types(pathA, hookA.secret).some((e) => e.type === 'subscription.created') &&
        types(pathB, hookB.secret).some((e) => e.type === 'subscription.created'),
    );
    await eventually(() => receiver.at(pathA).length === 3 && receiver.at(pathB).length === 3);
    expect(types(pathA, hookA.secret).map((e) => [e.type, e.data['user_id']])).toEqual(
      expect.arrayContaining([
        ['connection.requested', userA.userId],
        ['connection.approved', userA.userId],
        ['subscription.created', userA.userId],
      ]),
    );
    expect(types(pathA, hookA.secret).every((e) => e.data['user_id'] === userA.userId)).toBe(true);
    expect(types(pathB, hookB.secret).every((e) => e.data['user_id'] === userB.userId)).toBe(true);

    // Each provider sees and manages only its own endpoints.
    const listed = expectStatus(await t.call('GET', `${PROVIDERS}/webhooks`, { token: providerA.token }), 200).json<
      Created[]
    >();
    expect(listed.map((e) => e.id)).toEqual([hookA.id]);
    expect(listed[0]).not.toHaveProperty('secret');
    expectError(
      await t.call('GET', `${PROVIDERS}/webhooks/${hookB.id}`, { token: providerA.token }),
      404,
      'webhook_not_found',
    );
    expectError(await t.admin('GET', `/webhooks/${hookA.id}`), 404, 'webhook_not_found');
  });

  it('refuses bad input on every field, and a sixth provider endpoint', async () => {
    const url = `${receiver.origin}/never`;
    const create = (body: unknown) => t.admin('POST', '/webhooks', body);
    expectError(await create({ url: 'ftp://example.com/hook', events: ['*'] }), 400, 'invalid_url');
    expectError(await create({ url: 'not a url', events: ['*'] }), 400, 'invalid_url');
    expectError(await create({ url: 'http://u:p@example.com/', events: ['*'] }), 400, 'invalid_url');
    expectError(await create({ url: 'x'.repeat(2049), events: ['*'] }), 400, 'validation_failed');
    expectError(await create({ url, events: ['user.exploded'] }), 400, 'validation_failed');
    expectError(await create({ url, events: [] }), 400, 'validation_failed');
    expectError(await create({ url, events: ['*', 'user.created'] }), 400, 'validation_failed');
    expectError(await create({ url, events: ['*'], description: 'd'.repeat(257) }), 400, 'validation_failed');
    expectError(await create({ url, events: ['*'], enabled: 'yes' }), 400, 'validation_failed');
    expectError(await create({ url, events: ['*'], secret: 'whsec_mine' }), 400, 'validation_failed');
    expectError(await create({ events: ['*'] }), 400, 'validation_failed');
    const endpoint = await adminEndpoint(t, url, ['user.created']);
    expectError(await t.admin('PATCH', `/webhooks/${endpoint.id}`, {}), 400, 'no_update_fields');
    expectError(await t.admin('PATCH', `/webhooks/${endpoint.id}`, { url: 'gopher://x/' }), 400, 'invalid_url');
    expectError(await t.admin('GET', '/webhooks/wh_missing'), 404, 'webhook_not_found');
    expectStatus(await t.admin('DELETE', `/webhooks/${endpoint.id}`), 204);
    expectError(await t.admin('DELETE', `/webhooks/${endpoint.id}`), 404, 'webhook_not_found');

    const provider = await t.newProvider();
    for (let i = 0; i < 5; i += 1) {
      expectStatus(
        await t.call('POST', `${PROVIDERS}/webhooks`, { token: provider.token, body: { url, events: ['*'] } }),
        201,
      );
    }
    expectError(
      await t.call('POST', `${PROVIDERS}/webhooks`, { token: provider.token, body: { url, events: ['*'] } }),
      409,
      'webhook_limit_reached',
    );
  });

  describePrivate(kind);
  describeTwoInstances(kind);
});

function describePrivate(kind: DatabaseKind): void {
  const strict = useTestApp(kind, {
    ADMIN_SECRET: 'webhook-secret-of-at-least-32-characters',
    FETCH_ALLOW_PRIVATE: 'false',
  });
  it('refuses a private or internal host without FETCH_ALLOW_PRIVATE', async () => {
    for (const url of ['http://127.0.0.1:9/hook', 'http://10.1.2.3/hook', 'http://localhost/hook', 'http://[::1]/']) {
      expectError(await strict.admin('POST', '/webhooks', { url, events: ['*'] }), 400, 'invalid_url');
    }
  });
}

function describeTwoInstances(kind: DatabaseKind): void {
  it('two instances on one database deliver each message exactly once, and take up the leases of a dead one', async () => {
    const receiver = await startReceiver();
    const scratch = await scratchDatabaseUrl(kind);
    const config = testConfig({ DATABASE_URL: scratch.url, ...FAST, WEBHOOK_CONCURRENCY: '4' });
    const first = createDatabase(scratch.url);
    await migrateToLatest(first);
    const second = createDatabase(scratch.url);
    const contexts = [await createContext(config, first), await createContext(config, second)];
    try {
      const path = '/shared';
      const endpoint = await contexts[0]!.webhooks.create(null, {
        url: receiver.origin + path,
        events: ['user.created'],
      });
      const count = 40;
      await inTransaction(first.db, (trx) =>
        writeEvents(
          trx,
          Array.from({ length: count }, (_, i) => userEvent('user.created', 1000 + i)),
        ),
      );
      // An instance that leased 5 messages for a minute and died before delivering them.
      const now = Date.now();
      const dead = 5;
      await claimDue(first.db, first.dialect, dead, new Date(now).toISOString(), new Date(now + 60_000).toISOString());
      for (const context of contexts) context.webhookDelivery.start();
      const delivered = async () =>
        (
          await first.db
            .selectFrom('webhook_messages')
            .select('status')
            .where('endpoint_id', '=', endpoint.id)
            .where('status', '=', 'delivered')
            .execute()
        ).length;
      await eventually(async () => (await delivered()) === count - dead);
      await withClockAhead(120_000, () => eventually(async () => (await delivered()) === count));
      const perId = new Map<string, number>();
      for (const hit of receiver.at(path)) {
        verifyDelivery(hit, endpoint.secret);
        const id = String(hit.headers['webhook-id']);
        perId.set(id, (perId.get(id) ?? 0) + 1);
      }
      expect(perId.size).toBe(count);
      expect([...perId.values()].every((hits) => hits === 1)).toBe(true);
    } finally {
      for (const context of contexts) await context.close();
      await first.close();
      await second.close();
      await scratch.cleanup();
      await receiver.close();
    }
  });
}
