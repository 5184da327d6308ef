// Inserts of the outbox and the audit log; reads live with their readers (audit, webhooks).
import type { Executor } from '../db/executor.js';
import type { Insertable } from 'kysely';
import type { AuditLogTable, EventsTable } from '../db/types.js';

export async function insertEvents(db: Executor, rows: Insertable<EventsTable>[]): Promise<void> {
  await db.insertInto('events').values(rows).execute();
}

export async function insertAuditEntries(db: Executor, rows: Insertable<AuditLogTable>[]): Promise<void> {
  await db.insertInto('audit_log').values(rows).execute();
}
