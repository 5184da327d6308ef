// An endpoint's life beyond single deliveries (docs/webhooks.md): automatic disabling after 3 days without success and
// 10 failed messages, messages waiting while disabled, retention of messages and events, and a provider that loses a
// user's approval no longer receiving that user's events.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import { decide, PROVIDERS, requestAccess, subsApi, vlessUri } from '../support/factories.js';
import { expectStatus } from '../support/expect.js';
import { waitFor } from '../support/time.js';
import { startReceiver, verifyDelivery, type WebhookReceiver } from '../support/webhook-receiver.js';

const DAY_MS = 24 * 3600_000;

interface Endpoint {
  id: string;
  secret: string;
  enabled: boolean;
  disabled_reason: string | null;
}

describeEachDatabase('webhook endpoint lifecycle', (kind) => {
  const t = useTestApp(kind, {
    ADMIN_SECRET: 'lifecycle-secret-of-at-least-32-characters',
    WEBHOOK_POLL_MS: '20',
    WEBHOOK_RETRY_DELAYS: '0.05',
  });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    t.context.webhookDelivery.start();
  });
  afterAll(async () => {
    await t.context.webhookDelivery.stop();
    await receiver.close();
  });

  const endpoint = async (id: string) => expectStatus(await t.admin('GET', `/webhooks/${id}`), 200).json<Endpoint>();
  const statuses = async (id: string) =>
    (await t.database.db.selectFrom('webhook_messages').select('status').where('endpoint_id', '=', id).execute()).map(
      (row) => row.status,
    );

  it('disables an endpoint without success for 3 days once 10 messages failed; enabling it delivers what waited', async () => {
    const path = '/dead';
    receiver.answer(path, () => 500);
    const created = expectStatus(
      await t.admin('POST', '/webhooks', { url: `${receiver.origin}${path}`, events: ['*'] }),
      201,
    ).json<Endpoint>();
    const fourDaysAgo = new Date(Date.now() - 4 * DAY_MS).toISOString();
    await t.database.db
      .updateTable('webhook_endpoints')
      .set({ created_at: fourDaysAgo })
      .where('id', '=', created.id)
      .execute();

    for (let i = 0; i < 9; i += 1) expectStatus(await t.admin('POST', `/webhooks/${created.id}/test`), 202);
    expect(
      await waitFor(20_000, async () => (await statuses(created.id)).filter((s) => s === 'failed').length === 9),
    ).toBe(true);
    expect(await endpoint(created.id)).toMatchObject({ enabled: true, disabled_reason: null });

    expectStatus(await t.admin('POST', `/webhooks/${created.id}/test`), 202);
    expect(await waitFor(20_000, async () => !(await endpoint(created.id)).enabled)).toBe(true);
    expect((await endpoint(created.id)).disabled_reason).toMatch(/3 days/);

    // A message for a disabled endpoint waits; enabling it clears the reason and the message goes out.
    receiver.answer(path, () => 200);
    const waiting = expectStatus(await t.admin('POST', `/webhooks/${created.id}/test`), 202).json<{
      event_id: string;
    }>();
    const enabled = expectStatus(
      await t.admin('PATCH', `/webhooks/${created.id}`, { enabled: true }),
      200,
    ).json<Endpoint>();
    expect(enabled.disabled_reason).toBeNull();
    expect(
      await waitFor(20_000, () =>
        receiver.at(path).some((hit) => hit.headers['webhook-id'] === waiting.event_id && hit.status === 200),
      ),
    ).toBe(true);
  });

  it('prunes delivered and failed messages and events after 7 days, keeps pending messages', async () => {
    const created = expectStatus(
      await t.admin('POST', '/webhooks', { url: `${receiver.origin}/kept`, events: ['*'], enabled: false }),
      201,
    ).json<Endpoint>();
    const tests = [];
    for (let i = 0; i < 3; i += 1) {
      tests.push(
        expectStatus(await t.admin('POST', `/webhooks/${created.id}/test`), 202).json<{
          delivery_id: string;
          event_id: string;
        }>(),
      );
    }
    // The running worker claims these at once and puts them back to wait (their endpoint is disabled), well ahead of
    // their next turn. Only once it has, can the rows be aged without the worker's settling writing over them.
    const ids = tests.map((m) => m.delivery_id);
    const setAside = async () => {
      const rows = await t.database.db
        .selectFrom('webhook_messages')
        .select(['lease_until', 'next_attempt_at'])
        .where('id', 'in', ids)
        .execute();
      const now = new Date().toISOString();
      return rows.every((row) => row.lease_until === null && row.next_attempt_at > now);
    };
    expect(await waitFor(10_000, setAside)).toBe(true);
    const old = new Date(Date.now() - 8 * DAY_MS).toISOString();
    const never = new Date(Date.now() + 365 * DAY_MS).toISOString();
    const [delivered, failed, pending] = tests as [(typeof tests)[0], (typeof tests)[0], (typeof tests)[0]];
    for (const [message, status] of [
      [delivered, 'delivered'],
      [failed, 'failed'],
      [pending, 'pending'],
    ] as const) {
      await t.database.db
        .updateTable('webhook_messages')
        .set({ status, updated_at: old, created_at: old, next_attempt_at: never })
        .where('id', '=', message.delivery_id)
        .execute();
    }
    await t.database.db
      .updateTable('events')
      .set({ created_at: old })
      .where(
        'id',
        'in',
        tests.map((m) => m.event_id),
      )
      .execute();
    await t.context.housekeeping.prune();
    const left = await t.database.db
      .selectFrom('webhook_messages')
      .select('id')
      .where('endpoint_id', '=', created.id)
      .execute();
    expect(left.map((row) => row.id)).toEqual([pending.delivery_id]);
    const events = await t.database.db
      .selectFrom('events')
      .select('id')
      .where(
        'id',
        'in',
        tests.map((m) => m.event_id),
      )
      .execute();
    expect(events).toEqual([]);
  });

  it("stops giving a provider a user's subscription events once the user revokes it", async () => {
    const path = '/revoked-provider';
    const provider = await t.newProvider();
    const hook = expectStatus(
      await t.call('POST', `${PROVIDERS}/webhooks`, {
        token: provider.token,
        body: { url: `${receiver.origin}${path}`, events: ['subscription.created', 'connection.revoked'] },
      }),
      201,
    ).json<Endpoint>();
    const user = await t.newUser();
    await requestAccess(t, provider, user.userId);
    expectStatus(await decide(t, user.token, provider.name, 'approve'), 200);
    await subsApi(t).create([vlessUri()], user.token);
    expectStatus(await decide(t, user.token, provider.name, 'revoke'), 204);
    await subsApi(t).create([vlessUri()], user.token);

    const types = () => receiver.at(path).map((hit) => verifyDelivery(hit, hook.secret).type);
    expect(await waitFor(15_000, () => types().length === 2)).toBe(true);
    expect(types().sort()).toEqual(['connection.revoked', 'subscription.created']);
    expect(await statuses(hook.id)).toHaveLength(2);
  });
});
