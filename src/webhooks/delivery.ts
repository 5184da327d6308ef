// The delivery worker of every instance: leases due webhook messages, POSTs them signed, and schedules retries (docs/webhooks.md).
import { lookup as dnsLookup } from 'node:dns/promises';
import type { FastifyBaseLogger } from 'fastify';
import { Agent, request } from 'undici';
import type { DatabaseHandle } from '../db/database.js';
import { inTransaction } from '../db/executor.js';
import { checkPublicHost, type LookupFn } from '../net/ssrf.js';
import { connectLookup } from '../modules/fetch/upstream.js';
import { findEndpointById, updateEndpoint, type EndpointRow } from './endpoints.store.js';
import { claimDue, countFailed, recordAttempt, settleMessage, type MessageRow } from './messages.store.js';
import { signatureHeader } from './signing.js';
import { OnePerTurn } from '../shared/one-per-turn.js';

/**
 * A lease outlives the attempt it covers (at most `timeoutMs`) and the writes after it, so a message is never attempted
 * twice at once, and an instance that dies mid-delivery frees its messages this soon.
 */
const LEASE_PER_TIMEOUT = 4;
const RESPONSE_KEPT = 1024;
const DISABLE_AFTER_MS = 3 * 24 * 3600_000;
const DISABLE_AFTER_FAILED = 10;

export interface DeliveryOptions {
  retryDelaysSeconds: readonly number[];
  concurrency: number;
  pollMs: number;
  /** A 2xx within this is a success (docs/webhooks.md: 10 s). */
  timeoutMs: number;
  allowPrivate: boolean;
  userAgent: string;
  log: Pick<FastifyBaseLogger, 'warn'>;
}

const systemLookup: LookupFn = (hostname) => dnsLookup(hostname, { all: true });

export class WebhookDelivery {
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly agent: Agent;
  /**
   * Deliveries start, and write their outcome, one per turn of the event loop: eight answers arriving together would
   * otherwise run their database work as one block in front of the public link's requests (docs/benchmarks.md).
   */
  private readonly turns = new OnePerTurn();

  constructor(
    private readonly database: Pick<DatabaseHandle, 'db' | 'dialect'>,
    private readonly options: DeliveryOptions,
  ) {
    // Names are checked again when the socket connects, so a host re-resolving to a private address is refused.
    this.agent = new Agent({
      connect: {
        timeout: options.timeoutMs,
        lookup: connectLookup(systemLookup, !options.allowPrivate, new AbortController().signal),
      },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.poll(), this.options.pollMs);
    this.timer.unref();
  }

  /** Claims what fits in the free delivery slots and starts those deliveries; never rejects. */
  poll(): Promise<void> {
    return (this.polling ??= this.claimAndDeliver()
      .catch((error: unknown) => this.options.log.warn({ err: error }, 'webhook delivery poll failed; retrying'))
      .finally(() => {
        this.polling = null;
      }));
  }

  /** Stops claiming and waits for the deliveries under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.polling;
    await Promise.all([...this.inFlight]);
    await this.agent.close().catch(() => undefined);
  }

  private async claimAndDeliver(): Promise<void> {
    const free = this.options.concurrency - this.inFlight.size;
    if (free <= 0) return;
    const now = Date.now();
    const claimed = await claimDue(
      this.database.db,
      this.database.dialect,
      free,
      new Date(now).toISOString(),
      new Date(now + this.options.timeoutMs * LEASE_PER_TIMEOUT).toISOString(),
    );
    const backlog = claimed.length === free;
    for (const message of claimed) {
      const work = this.deliver(message)
        .catch((error: unknown) =>
          this.options.log.warn({ err: error, message: message.id }, 'webhook delivery failed'),
        )
        .finally(() => {
          this.inFlight.delete(work);
          // A full claim suggests more are due: take the freed slot now rather than at the next tick.
          if (backlog && this.timer) void this.poll();
        });
      this.inFlight.add(work);
    }
  }

  private async deliver(message: MessageRow): Promise<void> {
    await this.turns.wait();
    const endpoint = await findEndpointById(this.database.db, message.endpoint_id);
    if (!endpoint) return;
    if (endpoint.enabled !== 1) {
      // Waits, leased by nobody, until the endpoint is enabled again or the message ages out.
      await settleMessage(this.database.db, message.id, {
        status: 'pending',
        attempts: message.attempts,
        nextAttemptAt: new Date(Date.now() + this.options.pollMs * 60).toISOString(),
      });
      return;
    }
    const started = Date.now();
    const result = await this.post(endpoint, message);
    await this.turns.wait();
    const attempts = message.attempts + 1;
    const delay = result.ok ? undefined : this.options.retryDelaysSeconds[attempts - 1];
    const outcome = result.ok
      ? ({ status: 'delivered', attempts } as const)
      : delay !== undefined
        ? ({ status: 'pending', attempts, nextAttemptAt: new Date(Date.now() + delay * 1000).toISOString() } as const)
        : ({ status: 'failed', attempts } as const);
    // The attempt, the message's new state and the endpoint's last success are written together: one commit, and no
    // moment at which an attempt is logged while its message still looks leased.
    await inTransaction(this.database.db, async (trx) => {
      await recordAttempt(trx, message.id, {
        attempted_at: new Date(started).toISOString(),
        status_code: result.status,
        duration_ms: Date.now() - started,
        response: result.response,
      });
      await settleMessage(trx, message.id, outcome);
      if (result.ok) await updateEndpoint(trx, endpoint.id, { last_success_at: new Date().toISOString() });
    });
    if (outcome.status === 'failed') await this.disableIfDead(endpoint);
  }

  /** No success for 3 days and at least 10 failed messages: the endpoint is disabled. */
  private async disableIfDead(endpoint: EndpointRow): Promise<void> {
    const since = Date.parse(endpoint.last_success_at ?? endpoint.created_at);
    if (Date.now() - since < DISABLE_AFTER_MS) return;
    if ((await countFailed(this.database.db, endpoint.id)) < DISABLE_AFTER_FAILED) return;
    await updateEndpoint(this.database.db, endpoint.id, {
      enabled: 0,
      disabled_reason: `no successful delivery for 3 days and ${DISABLE_AFTER_FAILED} or more failed messages`,
      updated_at: new Date().toISOString(),
    });
  }

  private async post(
    endpoint: EndpointRow,
    message: MessageRow,
  ): Promise<{ ok: boolean; status: number | null; response: string }> {
    try {
      if (!this.options.allowPrivate) {
        const verdict = await checkPublicHost(new URL(endpoint.url).hostname);
        if (!verdict.ok) return { ok: false, status: null, response: verdict.reason };
      }
      const timestamp = Math.floor(Date.now() / 1000);
      const secrets = [endpoint.secret];
      if (
        endpoint.previous_secret &&
        endpoint.previous_secret_until &&
        endpoint.previous_secret_until > new Date().toISOString()
      ) {
        secrets.push(endpoint.previous_secret);
      }
      const answer = await request(endpoint.url, {
        method: 'POST',
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.options.timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': this.options.userAgent,
          'webhook-id': message.event_id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(secrets, message.event_id, timestamp, message.payload),
        },
        body: message.payload,
      });
      const response = await readPrefix(answer.body);
      return { ok: answer.statusCode >= 200 && answer.statusCode < 300, status: answer.statusCode, response };
    } catch (error) {
      return { ok: false, status: null, response: error instanceof Error ? error.message : String(error) };
    }
  }
}

/** The first 1 KiB of a body as text; the rest is not read. */
async function readPrefix(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      parts.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_KEPT) break;
    }
  } finally {
    body.destroy();
  }
  return Buffer.concat(parts).subarray(0, RESPONSE_KEPT).toString('utf8');
}
