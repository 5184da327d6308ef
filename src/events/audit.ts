// The audit log as read by admins and by users about their own account (docs/webhooks.md).
import type { Executor } from '../db/executor.js';
import type { AuditLogTable } from '../db/types.js';
import type { Selectable } from 'kysely';
import type { ActorKind } from './event-types.js';
import { listAudit, type AuditFilter } from './audit.store.js';
import type { AdminAuditQuery, AuditPage, MeAuditQuery } from './audit.schemas.js';

type Row = Selectable<AuditLogTable>;

export async function adminAuditPage(db: Executor, query: AdminAuditQuery): Promise<AuditPage> {
  const [actorKind, ...id] = query.actor?.split(':') ?? [];
  return page(db, query, {
    ...(actorKind ? { actorKind } : {}),
    ...(id.length > 0 ? { actorId: id.join(':') } : {}),
    ...(query.action ? { action: query.action } : {}),
    ...(query.target ? { target: query.target } : {}),
  });
}

/** What was done to a user's account and subscriptions; others' addresses and request ids are not theirs to see. */
export async function userAuditPage(db: Executor, userId: number, query: MeAuditQuery): Promise<AuditPage> {
  const result = await page(db, query, { userId });
  const self = String(userId);
  for (const entry of result.entries) {
    if (entry.actor.kind !== 'user' || entry.actor.id !== self)
      Object.assign(entry, { client_ip: null, request_id: null });
  }
  return result;
}

async function page(db: Executor, query: MeAuditQuery, filter: AuditFilter): Promise<AuditPage> {
  const limit = query.limit ?? 50;
  const rows = await listAudit(
    db,
    {
      ...filter,
      ...(query.since ? { since: new Date(query.since).toISOString() } : {}),
      ...(query.until ? { until: new Date(query.until).toISOString() } : {}),
      ...(query.cursor ? { before: Number(query.cursor) } : {}),
    },
    limit,
  );
  const last = rows.at(-1);
  return { entries: rows.map(entry), next_cursor: rows.length === limit && last ? String(last.seq) : null };
}

function entry(row: Row) {
  return {
    id: String(row.seq),
    time: row.created_at,
    actor: { kind: row.actor_kind as ActorKind, id: row.actor_id },
    client_ip: row.client_ip,
    request_id: row.request_id,
    action: row.action,
    target: row.target,
    event_id: row.event_id,
    summary: JSON.parse(row.summary) as Record<string, unknown>,
  };
}
