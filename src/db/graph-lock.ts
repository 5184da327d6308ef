// The one lock that serialises writes adding internal references, so a cycle or depth check and its insert are atomic.
import { sql } from 'kysely';
import type { Dialect } from './database.js';
import type { Executor } from './executor.js';

/** The advisory lock key of the reference graph (any constant no other lock of this database uses). */
const GRAPH_LOCK_KEY = 0x5357_4752; // "SWGR"

/**
 * Takes the graph lock until `trx` ends (docs/architecture.md, Request flow: a write to a subscription's sources); must be the first statement of the transaction. PostgreSQL: one
 * transaction-level advisory lock. SQLite: an empty write takes the database's write lock now, before anything is
 * read; in one process Kysely already runs transactions one at a time, and across processes a deferred transaction
 * that read first would fail to upgrade (SQLITE_BUSY) instead of waiting, so taking the lock first is what makes a
 * second process wait its turn (like BEGIN IMMEDIATE).
 */
export async function lockReferenceGraph(trx: Executor, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql`select pg_advisory_xact_lock(${GRAPH_LOCK_KEY}::bigint)`.execute(trx);
  } else {
    await trx
      .updateTable('subscriptions')
      .set({ token: sql`token` })
      .where(sql<boolean>`0`)
      .execute();
  }
}
