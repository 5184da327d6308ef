// Webhook endpoint rows, each owned by the admins (provider_hash null) or by one provider.
import type { Selectable, Updateable } from 'kysely';
import type { Executor } from '../db/executor.js';
import type { WebhookEndpointsTable } from '../db/types.js';

export type EndpointRow = Selectable<WebhookEndpointsTable>;
/** null: the admins' endpoints; otherwise one provider's. */
export type Owner = string | null;

function owned(db: Executor, owner: Owner) {
  const query = db.selectFrom('webhook_endpoints').selectAll();
  return owner === null ? query.where('provider_hash', 'is', null) : query.where('provider_hash', '=', owner);
}

export async function listEndpoints(db: Executor, owner: Owner): Promise<EndpointRow[]> {
  return owned(db, owner).orderBy('created_at').orderBy('id').execute();
}

export async function findEndpoint(db: Executor, owner: Owner, id: string): Promise<EndpointRow | undefined> {
  return owned(db, owner).where('id', '=', id).executeTakeFirst();
}

export async function findEndpointById(db: Executor, id: string): Promise<EndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countEndpoints(db: Executor, owner: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('provider_hash', '=', owner)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertEndpoint(db: Executor, row: EndpointRow): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

export async function updateEndpoint(
  db: Executor,
  id: string,
  changes: Updateable<WebhookEndpointsTable>,
): Promise<void> {
  await db.updateTable('webhook_endpoints').set(changes).where('id', '=', id).execute();
}

export async function deleteEndpoint(db: Executor, owner: Owner, id: string): Promise<boolean> {
  let query = db.deleteFrom('webhook_endpoints').where('id', '=', id);
  query = owner === null ? query.where('provider_hash', 'is', null) : query.where('provider_hash', '=', owner);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Every enabled endpoint, as the outbox needs them to fan an event out. */
export async function enabledEndpoints(
  db: Executor,
): Promise<Array<Pick<EndpointRow, 'id' | 'provider_hash' | 'events'>>> {
  return db
    .selectFrom('webhook_endpoints')
    .select(['id', 'provider_hash', 'events'])
    .where('enabled', '=', 1)
    .execute();
}

/** `${user_id}:${provider_hash}` of every approved connection among these users and providers. */
export async function approvedPairs(db: Executor, userIds: number[], providerHashes: string[]): Promise<Set<string>> {
  if (userIds.length === 0 || providerHashes.length === 0) return new Set();
  const rows = await db
    .selectFrom('connections')
    .select(['user_id', 'provider_hash'])
    .where('status', '=', 'approved')
    .where('user_id', 'in', userIds)
    .where('provider_hash', 'in', providerHashes)
    .execute();
  return new Set(rows.map((row) => `${row.user_id}:${row.provider_hash}`));
}
