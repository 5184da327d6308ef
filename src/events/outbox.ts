// The transactional outbox: events (and their audit entries) are inserted in the transaction of the change they describe.
import { randomBytes } from 'node:crypto';
import { chunks } from '../db/chunks.js';
import { insertAuditEntries, insertEvents } from './events.store.js';
import { inTransaction, type Executor } from '../db/executor.js';
import { currentActing, type Acting } from './actor-context.js';
import type { Actor, Emit, EventData, EventInput } from './event-types.js';
import type { Insertable } from 'kysely';
import type { AuditLogTable } from '../db/types.js';
import { matchEndpoints } from '../webhooks/matching.js';
import { insertMessages } from '../webhooks/messages.store.js';

export interface StoredEvent extends EventInput {
  id: string;
  timestamp: string;
  actor: Actor;
}

/** Rows per insert: 11 variables each stays far below every driver's limit (db/chunks.ts). */
const ROWS_PER_INSERT = 500;

export function newEventId(): string {
  return `evt_${randomBytes(16).toString('base64url')}`;
}

/**
 * Inserts `events`, the audit entries of those that name an action, and a webhook message per matching endpoint
 * (docs/webhooks.md), all inside `trx`.
 */
export async function writeEvents(
  trx: Executor,
  events: readonly EventInput[],
  acting: Acting = currentActing(),
): Promise<StoredEvent[]> {
  if (events.length === 0) return [];
  const actor = acting.actor();
  const timestamp = new Date().toISOString();
  const stored = events.map((event) => ({ ...event, id: newEventId(), timestamp, actor: event.actor ?? actor }));
  for (const batch of chunks(stored, ROWS_PER_INSERT)) {
    await insertEvents(
      trx,
      batch.map((event) => ({
        id: event.id,
        type: event.type,
        actor_kind: event.actor.kind,
        actor_id: event.actor.id,
        user_id: event.userId ?? null,
        provider_hash: event.providerHash ?? null,
        data: JSON.stringify(event.data),
        created_at: timestamp,
      })),
    );
  }
  const audited = stored.filter((event) => event.audit && event.actor.kind !== 'system');
  for (const batch of chunks(audited, ROWS_PER_INSERT)) {
    await insertAuditEntries(
      trx,
      batch.map((event) =>
        auditRow(acting, event.actor, timestamp, {
          action: event.audit?.action ?? '',
          target: event.audit?.target ?? '',
          userId: event.userId ?? null,
          eventId: event.id,
          summary: event.data,
        }),
      ),
    );
  }
  await insertMessages(trx, await matchEndpoints(trx, stored));
  return stored;
}

/** A management write that is no event (webhook endpoints): what the audit log records about it. */
export interface AuditInput {
  action: string;
  target: string;
  /** What changed: field names and counts, never secret values. */
  summary: EventData;
}

/** Inserts the audit entry of a write that has no event, inside the transaction of that write. */
export async function writeAudit(trx: Executor, entry: AuditInput, acting: Acting = currentActing()): Promise<void> {
  const row = auditRow(acting, acting.actor(), new Date().toISOString(), { ...entry, userId: null, eventId: null });
  await insertAuditEntries(trx, [row]);
}

function auditRow(
  acting: Acting,
  actor: Actor,
  timestamp: string,
  entry: AuditInput & { userId: number | null; eventId: string | null },
): Insertable<AuditLogTable> {
  return {
    created_at: timestamp,
    actor_kind: actor.kind,
    actor_id: actor.id,
    client_ip: acting.clientIp,
    request_id: acting.requestId,
    action: entry.action,
    target: entry.target,
    user_id: entry.userId,
    event_id: entry.eventId,
    summary: JSON.stringify(entry.summary),
  };
}

/** Runs `work` in one transaction; the events it emits are written in that transaction before it commits. */
export function writeWithEvents<T>(db: Executor, work: (trx: Executor, emit: Emit) => Promise<T>): Promise<T> {
  return inTransaction(db, async (trx) => {
    const emitted: EventInput[] = [];
    const value = await work(trx, (event) => emitted.push(event));
    await writeEvents(trx, emitted);
    return value;
  });
}
