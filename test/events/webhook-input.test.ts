// The order messages go out in, and bad input on the fields test/events/webhooks.test.ts and audit.test.ts leave out:
// endpoint changes, path ids, the delivery log's limit, /me/audit's filters and the request history's credentials.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import { ME, PROVIDERS, subsApi } from '../support/factories.js';
import { expectError, expectStatus } from '../support/expect.js';
import { waitFor } from '../support/time.js';
import { startReceiver, verifyDelivery, type WebhookReceiver } from '../support/webhook-receiver.js';
import { inTransaction } from '../../src/db/executor.js';
import { writeEvents } from '../../src/events/outbox.js';
import { userEvent } from '../../src/events/subjects.js';

describeEachDatabase('webhook order and bad input', (kind) => {
  const t = useTestApp(kind, {
    ADMIN_SECRET: 'input-secret-of-at-least-32-characters',
    WEBHOOK_POLL_MS: '20',
    WEBHOOK_CONCURRENCY: '1',
  });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await t.context.webhookDelivery.stop();
    await receiver.close();
  });

  const create = async (path: string) =>
    expectStatus(
      await t.admin('POST', '/webhooks', { url: `${receiver.origin}${path}`, events: ['user.created'] }),
      201,
    ).json<{ id: string; secret: string }>();

  it('one delivery slot sends the events of a transaction in the order they were written; the log is newest first', async () => {
    const endpoint = await create('/ordered');
    const ids = Array.from({ length: 12 }, (_, i) => 7_000_000 + i);
    await inTransaction(t.database.db, (trx) =>
      writeEvents(
        trx,
        ids.map((id) => userEvent('user.created', id)),
      ),
    );
    t.context.webhookDelivery.start();
    expect(await waitFor(15_000, () => receiver.at('/ordered').length === ids.length)).toBe(true);
    const sent = receiver.at('/ordered').map((hit) => verifyDelivery(hit, endpoint.secret).data['user_id']);
    expect(sent).toEqual(ids);
    const log = expectStatus(await t.admin('GET', `/webhooks/${endpoint.id}/deliveries?limit=5`), 200).json<
      Array<{ event_id: string }>
    >();
    const newest = receiver
      .at('/ordered')
      .slice(-5)
      .reverse()
      .map((hit) => hit.headers['webhook-id']);
    expect(log.map((entry) => entry.event_id)).toEqual(newest);
  });

  it('refuses bad input on every field of a change, and bad ids and limits', async () => {
    const endpoint = await create('/never');
    const patch = (body: unknown) => t.admin('PATCH', `/webhooks/${endpoint.id}`, body);
    for (const body of [
      { url: '' },
      { url: `http://example.com/${'x'.repeat(2040)}` },
      { url: 42 },
      { events: [] },
      { events: ['user.exploded'] },
      { events: ['user.created', 'user.created'] },
      { events: 'user.created' },
      { events: ['*', 'user.created'] },
      { description: 'd'.repeat(257) },
      { description: 'line\nbreak' },
      { enabled: 'yes' },
      { enabled: null },
      { secret: 'whsec_mine' },
      [],
    ]) {
      expectError(await patch(body), 400, 'validation_failed');
    }
    expectError(await patch({ url: 'http://u:p@example.com/' }), 400, 'invalid_url');
    expectError(await patch({ url: 'mailto:a@example.com' }), 400, 'invalid_url');
    expectError(
      await t.admin('POST', '/webhooks', { url: `${receiver.origin}/x`, events: ['*'], description: 'a\u0007b' }),
      400,
      'validation_failed',
    );
    expectError(
      await t.admin('POST', '/webhooks', { url: `${receiver.origin}/x`, events: ['*', '*'] }),
      400,
      'validation_failed',
    );
    expectError(await t.admin('POST', '/webhooks', { url: '', events: ['*'] }), 400, 'validation_failed');

    const long = 'w'.repeat(65);
    expectError(await t.admin('GET', `/webhooks/${long}`), 400, 'validation_failed');
    expectError(await t.admin('POST', `/webhooks/${long}/test`), 400, 'validation_failed');
    expectError(
      await t.admin('POST', `/webhooks/${endpoint.id}/deliveries/${long}/redeliver`),
      400,
      'validation_failed',
    );
    expectError(
      await t.admin('POST', `/webhooks/wh_missing/deliveries/msg_missing/redeliver`),
      404,
      'webhook_not_found',
    );
    for (const query of ['?limit=0', '?limit=201', '?limit=ten', '?other=1']) {
      expectError(await t.admin('GET', `/webhooks/${endpoint.id}/deliveries${query}`), 400, 'validation_failed');
    }
    expectError(await t.admin('GET', '/webhooks/wh_missing/deliveries'), 404, 'webhook_not_found');
    expectError(await t.admin('POST', '/webhooks/wh_missing/rotate-secret'), 404, 'webhook_not_found');
    expectError(await t.admin('POST', '/webhooks/wh_missing/test'), 404, 'webhook_not_found');

    // The provider mount: a credential is required, and another provider's id is unknown there.
    expectError(await t.call('GET', `${PROVIDERS}/webhooks`), 401, 'missing_token');
    expectError(await t.call('GET', `${PROVIDERS}/webhooks`, { token: 'x'.repeat(43) }), 401, 'invalid_token');
    const provider = await t.newProvider();
    expectError(
      await t.call('PATCH', `${PROVIDERS}/webhooks/${endpoint.id}`, {
        token: provider.token,
        body: { enabled: false },
      }),
      404,
      'webhook_not_found',
    );
    expectError(
      await t.call('POST', `${PROVIDERS}/webhooks`, {
        token: provider.token,
        body: { url: 'ftp://x/', events: ['*'] },
      }),
      400,
      'invalid_url',
    );
  });

  it("refuses bad /me/audit filters and the request history's missing or wrong credentials", async () => {
    const user = await t.newUser();
    for (const query of [
      '?since=yesterday',
      '?until=2025-02-30T00:00:00',
      '?cursor=abc',
      '?cursor=0',
      `?cursor=${'9'.repeat(17)}`,
      '?limit=0',
      '?limit=201',
      '?target=user:1',
      '?action=user.create',
    ]) {
      expectError(await t.call('GET', `${ME}/audit${query}`, { token: user.token }), 400, 'validation_failed');
    }
    expectError(await t.call('GET', `${ME}/audit`, { token: 'x'.repeat(43) }), 401, 'invalid_token');
    expectError(await t.admin('GET', `/audit?cursor=${'9'.repeat(17)}`), 400, 'validation_failed');

    const { token } = await subsApi(t).create([], user.token);
    expectError(await t.call('GET', `/api/v1/subs/${token}/requests`), 401, 'missing_token');
    expectError(await t.call('GET', `/api/v1/subs/${token}/requests`, { token: 'x'.repeat(43) }), 401, 'invalid_token');
    expectStatus(await t.call('GET', `/api/v1/subs/${token}/requests`, { token: user.token }), 200);
  });
});
