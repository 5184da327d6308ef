// Reads of the audit log (newest first, by cursor) and its pruning by age; rows are inserted by the outbox only.
import type { Executor } from '../db/executor.js';

export interface AuditFilter {
  actorKind?: string;
  actorId?: string;
  action?: string;
  target?: string;
  since?: string;
  until?: string;
  userId?: number;
  /** Only entries older than this one (the previous page's last seq). */
  before?: number;
}

export function listAudit(db: Executor, filter: AuditFilter, limit: number) {
  let query = db.selectFrom('audit_log').selectAll().orderBy('seq', 'desc').limit(limit);
  if (filter.actorKind !== undefined) query = query.where('actor_kind', '=', filter.actorKind);
  if (filter.actorId !== undefined) query = query.where('actor_id', '=', filter.actorId);
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (filter.target !== undefined) query = query.where('target', '=', filter.target);
  if (filter.since !== undefined) query = query.where('created_at', '>=', filter.since);
  if (filter.until !== undefined) query = query.where('created_at', '<', filter.until);
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.before !== undefined) query = query.where('seq', '<', filter.before);
  return query.execute();
}

export async function pruneAudit(db: Executor, before: string): Promise<void> {
  await db.deleteFrom('audit_log').where('created_at', '<', before).execute();
}

export async function pruneEvents(db: Executor, before: string): Promise<void> {
  await db.deleteFrom('events').where('created_at', '<', before).execute();
}
