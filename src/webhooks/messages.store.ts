// The webhook message queue: inserted with their events, leased by one instance at a time, and their attempt log.
import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Dialect } from '../db/database.js';
import type { Executor } from '../db/executor.js';
import type { WebhookAttemptsTable, WebhookMessagesTable } from '../db/types.js';
import { chunks } from '../db/chunks.js';

export type MessageRow = Selectable<WebhookMessagesTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;

/** What a message carries: the event as delivered. */
export interface MessageEvent {
  id: string;
  type: string;
  timestamp: string;
  data: unknown;
}

/** Rows per insert: 11 variables each stays far below every driver's limit (db/chunks.ts). */
const ROWS_PER_INSERT = 500;

function newMessageId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

export function messageBody(event: MessageEvent): string {
  return JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data });
}

export async function insertMessages(
  db: Executor,
  messages: ReadonlyArray<{ event: MessageEvent; endpointId: string }>,
): Promise<string[]> {
  const now = new Date().toISOString();
  const rows = messages.map(({ event, endpointId }) => ({
    id: newMessageId(),
    endpoint_id: endpointId,
    event_id: event.id,
    event_type: event.type,
    payload: messageBody(event),
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: now,
    lease_until: null,
    created_at: now,
    updated_at: now,
  }));
  for (const batch of chunks(rows, ROWS_PER_INSERT)) await db.insertInto('webhook_messages').values(batch).execute();
  return rows.map((row) => row.id);
}

/**
 * Leases up to `limit` due messages until `leaseUntil` in one statement: PostgreSQL skips rows another instance is
 * claiming (FOR UPDATE SKIP LOCKED); SQLite runs one writing statement at a time.
 */
export async function claimDue(
  db: Executor,
  dialect: Dialect,
  limit: number,
  now: string,
  leaseUntil: string,
): Promise<MessageRow[]> {
  let due = db
    .selectFrom('webhook_messages')
    .select('seq')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    // Oldest first; messages of one transaction share their time, so the insertion order breaks the tie.
    .orderBy('next_attempt_at')
    .orderBy('seq')
    .limit(limit);
  if (dialect === 'postgres') due = due.forUpdate().skipLocked();
  return db
    .updateTable('webhook_messages')
    .set({ lease_until: leaseUntil })
    .where('seq', 'in', due)
    .returningAll()
    .execute();
}

export async function recordAttempt(
  db: Executor,
  messageId: string,
  attempt: { attempted_at: string; status_code: number | null; duration_ms: number; response: string },
): Promise<void> {
  await db
    .insertInto('webhook_attempts')
    .values({ message_id: messageId, ...attempt })
    .execute();
}

/** Ends the lease: delivered, failed for good, or pending again at `nextAttemptAt`. */
export async function settleMessage(
  db: Executor,
  messageId: string,
  outcome: { status: MessageRow['status']; attempts: number; nextAttemptAt?: string },
): Promise<void> {
  const now = new Date().toISOString();
  await db
    .updateTable('webhook_messages')
    .set({
      status: outcome.status,
      attempts: outcome.attempts,
      lease_until: null,
      updated_at: now,
      ...(outcome.nextAttemptAt ? { next_attempt_at: outcome.nextAttemptAt } : {}),
    })
    .where('id', '=', messageId)
    .execute();
}

export async function countFailed(db: Executor, endpointId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'failed')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The newest messages of an endpoint, with their attempts oldest first. */
export async function listDeliveries(
  db: Executor,
  endpointId: string,
  limit: number,
): Promise<Array<MessageRow & { attempt_log: AttemptRow[] }>> {
  const messages = await db
    .selectFrom('webhook_messages')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
  if (messages.length === 0) return [];
  const attempts = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where(
      'message_id',
      'in',
      messages.map((m) => m.id),
    )
    .orderBy('seq')
    .execute();
  return messages.map((message) => ({
    ...message,
    attempt_log: attempts.filter((attempt) => attempt.message_id === message.id),
  }));
}

/** Queues a message of this endpoint again now, with a fresh retry schedule; false when there is none. */
export async function requeue(db: Executor, endpointId: string, messageId: string): Promise<boolean> {
  const now = new Date().toISOString();
  const result = await db
    .updateTable('webhook_messages')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now, updated_at: now })
    .where('id', '=', messageId)
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Delivered and failed messages older than `before` (their attempts go with them). */
export async function pruneMessages(db: Executor, before: string): Promise<void> {
  await db
    .deleteFrom('webhook_messages')
    .where('status', 'in', ['delivered', 'failed'])
    .where('updated_at', '<', before)
    .execute();
}
