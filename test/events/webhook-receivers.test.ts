// A receiver that never answers and one that refuses connections (docs/webhooks.md): the service keeps serving the
// link and the API and writing events, and the delivery log shows the timeouts and refusals.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import { subsApi, vlessUri } from '../support/factories.js';
import { expectStatus } from '../support/expect.js';
import { waitFor } from '../support/time.js';
import { startReceiver, verifyDelivery, type WebhookReceiver } from '../support/webhook-receiver.js';
import { freePort } from '../../scripts/support/private-services.js';
import { inTransaction } from '../../src/db/executor.js';
import { writeEvents } from '../../src/events/outbox.js';
import { userEvent } from '../../src/events/subjects.js';

const BACKLOG = 12;

interface DeliveryView {
  event_id: string;
  event_type: string;
  status: string;
  attempts: Array<{ status_code: number | null; response: string }>;
}

describeEachDatabase('slow and unreachable webhook receivers', (kind) => {
  const t = useTestApp(kind, {
    ADMIN_SECRET: 'receivers-secret-of-at-least-32-characters',
    WEBHOOK_POLL_MS: '20',
    WEBHOOK_CONCURRENCY: '4',
    WEBHOOK_TIMEOUT_MS: '500',
    WEBHOOK_RETRY_DELAYS: '0.2,0.2',
  });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    receiver.answer('/held', () => 'hold');
  });
  afterAll(async () => {
    await t.context.webhookDelivery.stop();
    await receiver.close();
  });

  const create = async (url: string) =>
    expectStatus(await t.admin('POST', '/webhooks', { url, events: ['*'] }), 201).json<{
      id: string;
      secret: string;
    }>();
  const log = async (id: string) =>
    expectStatus(await t.admin('GET', `/webhooks/${id}/deliveries?limit=200`), 200).json<DeliveryView[]>();

  it(
    'keeps serving the link and the API and writing events while deliveries hang or are refused',
    { timeout: 120_000 },
    async () => {
      const user = await t.newUser();
      const sub = await subsApi(t).create([vlessUri()], user.token);
      const held = await create(`${receiver.origin}/held`);
      const refused = await create(`http://127.0.0.1:${await freePort()}/refused`);
      const healthy = await create(`${receiver.origin}/ok`);
      const since = new Date().toISOString();
      await inTransaction(t.database.db, (trx) =>
        writeEvents(
          trx,
          Array.from({ length: BACKLOG }, (_, i) => userEvent('user.updated', user.userId, { changed: [`f${i}`] })),
        ),
      );
      t.context.webhookDelivery.start();

      // Deliveries are hanging on the silent receiver and failing on the closed port.
      expect(await waitFor(15_000, () => receiver.at('/held').length >= 2)).toBe(true);
      expect(
        await waitFor(15_000, async () => (await log(refused.id)).some((message) => message.attempts.length > 0)),
      ).toBe(true);

      for (let i = 0; i < 3; i += 1) {
        expectStatus(await t.call('GET', `/sub/${sub.token}/plain`), 200);
        expectStatus(
          await t.call('PATCH', `/api/v1/subs/${sub.token}`, { token: user.token, body: { name: `n${i}` } }),
          200,
        );
      }
      await subsApi(t).create([vlessUri()], user.token);
      const events = await t.database.db
        .selectFrom('events')
        .select(['id', 'type'])
        .where('user_id', '=', user.userId)
        .where('type', 'in', ['subscription.updated', 'subscription.created'])
        .where('created_at', '>=', since)
        .execute();
      expect(events.map((e) => e.type).sort()).toEqual([
        'subscription.created',
        'subscription.updated',
        'subscription.updated',
        'subscription.updated',
      ]);
      const messages = await t.database.db
        .selectFrom('webhook_messages')
        .select('endpoint_id')
        .where(
          'event_id',
          'in',
          events.map((e) => e.id),
        )
        .execute();
      expect(messages).toHaveLength(3 * events.length);

      // The healthy receiver gets the new subscription's event despite the other two.
      const createdTypes = () =>
        receiver
          .at('/ok')
          .map((delivery) => verifyDelivery(delivery, healthy.secret))
          .filter((body) => body.type === 'subscription.created').length;
      expect(await waitFor(30_000, () => createdTypes() === 1)).toBe(true);

      // Every attempt at the two bad receivers is logged as a failure without a status code.
      const settled = async (id: string) => (await log(id)).every((message) => message.status === 'failed');
      expect(await waitFor(60_000, async () => (await settled(held.id)) && (await settled(refused.id)))).toBe(true);
      const heldLog = await log(held.id);
      const refusedLog = await log(refused.id);
      expect(heldLog).toHaveLength(BACKLOG + events.length);
      expect(refusedLog).toHaveLength(BACKLOG + events.length);
      for (const message of heldLog) {
        expect(message.attempts).toHaveLength(3);
        for (const attempt of message.attempts) {
          expect(attempt.status_code).toBeNull();
          expect(attempt.response).toMatch(/timeout|aborted/i);
        }
      }
      for (const message of refusedLog) {
        expect(message.attempts).toHaveLength(3);
        for (const attempt of message.attempts) {
          expect(attempt.status_code).toBeNull();
          expect(attempt.response).toMatch(/ECONNREFUSED/);
        }
      }
      expect((await log(healthy.id)).every((message) => message.status === 'delivered')).toBe(true);
    },
  );
});
