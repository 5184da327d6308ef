// The rules of webhook endpoints: URL and event checks, the provider limit, secrets, tests and redeliveries.
import { randomBytes } from 'node:crypto';
import type { Executor } from '../db/executor.js';
import { inTransaction } from '../db/executor.js';
import { errors } from '../http/errors.js';
import { checkPublicHost } from '../net/ssrf.js';
import { writeAudit, writeEvents } from '../events/outbox.js';
import { newWebhookSecret } from './signing.js';
import {
  countEndpoints,
  deleteEndpoint,
  findEndpoint,
  insertEndpoint,
  listEndpoints,
  updateEndpoint,
  type EndpointRow,
  type Owner,
} from './endpoints.store.js';
import { insertMessages, listDeliveries, requeue } from './messages.store.js';

/** A provider may have this many endpoints (docs/webhooks.md). */
export const MAX_PROVIDER_ENDPOINTS = 5;
/** After a rotation the old secret still signs for this long. */
const PREVIOUS_SECRET_MS = 24 * 3600_000;

export interface EndpointInput {
  url: string;
  events: string[];
  description?: string;
  enabled?: boolean;
}

export interface EndpointView {
  id: string;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  disabled_reason: string | null;
  last_success_at: string | null;
  created_at: string;
  updated_at: string;
}

export function endpointView(row: EndpointRow): EndpointView {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    description: row.description,
    enabled: row.enabled === 1,
    disabled_reason: row.disabled_reason,
    last_success_at: row.last_success_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export class WebhooksService {
  constructor(
    private readonly db: Executor,
    private readonly allowPrivate: boolean,
  ) {}

  async list(owner: Owner): Promise<EndpointView[]> {
    return (await listEndpoints(this.db, owner)).map(endpointView);
  }

  async get(owner: Owner, id: string): Promise<EndpointView> {
    return endpointView(await this.require(owner, id));
  }

  async create(owner: Owner, input: EndpointInput): Promise<EndpointView & { secret: string }> {
    checkEvents(input.events);
    await this.checkUrl(input.url);
    if (owner !== null && (await countEndpoints(this.db, owner)) >= MAX_PROVIDER_ENDPOINTS) {
      throw errors.webhookLimitReached(MAX_PROVIDER_ENDPOINTS);
    }
    const now = new Date().toISOString();
    const row: EndpointRow = {
      id: `wh_${randomBytes(12).toString('base64url')}`,
      provider_hash: owner,
      url: input.url,
      events: JSON.stringify(input.events),
      description: input.description ?? '',
      enabled: input.enabled === false ? 0 : 1,
      disabled_reason: null,
      secret: newWebhookSecret(),
      previous_secret: null,
      previous_secret_until: null,
      last_success_at: null,
      created_at: now,
      updated_at: now,
    };
    await inTransaction(this.db, async (trx) => {
      await insertEndpoint(trx, row);
      await audit(trx, 'create', row.id, {
        url_host: new URL(row.url).host,
        events: input.events,
        enabled: row.enabled === 1,
      });
    });
    return { ...endpointView(row), secret: row.secret };
  }

  async update(owner: Owner, id: string, input: Partial<EndpointInput>): Promise<EndpointView> {
    const fields = ['url', 'events', 'description', 'enabled'] as const;
    if (fields.every((field) => input[field] === undefined)) throw errors.noUpdateFields([...fields]);
    await this.require(owner, id);
    if (input.events) checkEvents(input.events);
    if (input.url !== undefined) await this.checkUrl(input.url);
    await inTransaction(this.db, async (trx) => {
      await updateEndpoint(trx, id, {
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.events ? { events: JSON.stringify(input.events) } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled ? 1 : 0, disabled_reason: null } : {}),
        updated_at: new Date().toISOString(),
      });
      await audit(trx, 'update', id, {
        changed: fields.filter((field) => input[field] !== undefined),
        ...(input.url !== undefined ? { url_host: new URL(input.url).host } : {}),
        ...(input.events ? { events: input.events } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      });
    });
    return this.get(owner, id);
  }

  async remove(owner: Owner, id: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      if (!(await deleteEndpoint(trx, owner, id))) throw errors.webhookNotFound();
      await audit(trx, 'delete', id, {});
    });
  }

  async rotateSecret(owner: Owner, id: string): Promise<{ id: string; secret: string; previous_expires_at: string }> {
    const row = await this.require(owner, id);
    const secret = newWebhookSecret();
    const previousUntil = new Date(Date.now() + PREVIOUS_SECRET_MS).toISOString();
    await inTransaction(this.db, async (trx) => {
      await updateEndpoint(trx, id, {
        secret,
        previous_secret: row.secret,
        previous_secret_until: previousUntil,
        updated_at: new Date().toISOString(),
      });
      await audit(trx, 'rotate_secret', id, { previous_expires_at: previousUntil });
    });
    return { id, secret, previous_expires_at: previousUntil };
  }

  /** Writes a webhook.test event (audited as `webhook.test`) and queues it for this endpoint only. */
  async sendTest(owner: Owner, id: string): Promise<{ event_id: string; delivery_id: string }> {
    await this.require(owner, id);
    return inTransaction(this.db, async (trx) => {
      const [event] = await writeEvents(trx, [
        { type: 'webhook.test', data: { webhook_id: id }, audit: { action: 'webhook.test', target: target(id) } },
      ]);
      const stored = event as NonNullable<typeof event>;
      const [deliveryId] = await insertMessages(trx, [{ event: stored, endpointId: id }]);
      return { event_id: stored.id, delivery_id: deliveryId as string };
    });
  }

  async deliveries(owner: Owner, id: string, limit: number) {
    await this.require(owner, id);
    const messages = await listDeliveries(this.db, id, limit);
    return messages.map((message) => ({
      id: message.id,
      event_id: message.event_id,
      event_type: message.event_type,
      status: message.status,
      attempts: message.attempt_log.map((attempt) => ({
        time: attempt.attempted_at,
        status_code: attempt.status_code,
        duration_ms: attempt.duration_ms,
        response: attempt.response,
      })),
      next_attempt_at: message.status === 'pending' ? message.next_attempt_at : null,
      created_at: message.created_at,
    }));
  }

  async redeliver(owner: Owner, id: string, deliveryId: string): Promise<void> {
    await this.require(owner, id);
    await inTransaction(this.db, async (trx) => {
      if (!(await requeue(trx, id, deliveryId))) throw errors.webhookNotFound('Delivery not found.');
      await audit(trx, 'redeliver', id, { delivery_id: deliveryId });
    });
  }

  private async require(owner: Owner, id: string): Promise<EndpointRow> {
    const row = await findEndpoint(this.db, owner, id);
    if (!row) throw errors.webhookNotFound();
    return row;
  }

  /** http(s), no credentials, and a public host unless FETCH_ALLOW_PRIVATE (docs/security.md). */
  private async checkUrl(text: string): Promise<void> {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw errors.invalidUrl('The webhook URL is not a valid URL.', { url: text });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw errors.invalidUrl('The webhook URL must be http or https.', { url: text, reason: 'scheme' });
    }
    if (url.username !== '' || url.password !== '') {
      throw errors.invalidUrl('The webhook URL must not contain credentials.', { reason: 'credentials' });
    }
    if (this.allowPrivate) return;
    const verdict = await checkPublicHost(url.hostname);
    if (!verdict.ok) {
      throw errors.invalidUrl(`The webhook URL points to a forbidden address: ${verdict.reason}`, {
        url: text,
        reason: verdict.reason,
      });
    }
  }
}

const target = (id: string) => `webhook:${id}`;

/**
 * The audit entry of an endpoint change (`webhook.update`, ...): field names, event types and the URL's host, never
 * the secret or the whole URL (its path or query may carry a receiver's token). It concerns no user's account.
 */
function audit(trx: Executor, verb: string, id: string, changes: Record<string, unknown>): Promise<void> {
  return writeAudit(trx, { action: `webhook.${verb}`, target: target(id), summary: { webhook_id: id, ...changes } });
}

/** `["*"]` stands alone; the schema already limits the names to known event types. */
function checkEvents(events: string[]): void {
  if (events.includes('*') && events.length > 1) {
    throw errors.validation('"*" subscribes to every event and cannot be combined with event types.', [
      { path: 'body.events', message: 'must be ["*"] or a list of event types' },
    ]);
  }
}
