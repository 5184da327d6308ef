// Database access for user-provider connections, always filtered by the user.
import type { Dialect } from '../../db/database.js';
import { lockRows, type Executor } from '../../db/executor.js';
import type { ConnectionRow } from '../../db/types.js';
import type { ConnectionStatus } from './transitions.js';

export interface ConnectionWithProvider extends ConnectionRow {
  provider_name: string;
  provider_url: string;
}

/** Every connection of the user, locked on PostgreSQL until the transaction ends (serialises approvals per user). */
export function lockUserConnections(db: Executor, dialect: Dialect, userId: number): Promise<ConnectionRow[]> {
  return lockRows(db.selectFrom('connections').selectAll().where('user_id', '=', userId), dialect).execute();
}

export function findConnection(db: Executor, userId: number, providerHash: string): Promise<ConnectionRow | undefined> {
  return db
    .selectFrom('connections')
    .selectAll()
    .where('user_id', '=', userId)
    .where('provider_hash', '=', providerHash)
    .executeTakeFirst();
}

/** `statuses` undefined lists every status. */
export function listUserConnections(
  db: Executor,
  userId: number,
  statuses?: ConnectionStatus[],
): Promise<ConnectionWithProvider[]> {
  let query = db
    .selectFrom('connections')
    .innerJoin('providers', 'providers.provider_hash', 'connections.provider_hash')
    .selectAll('connections')
    .select(['providers.provider_name', 'providers.provider_url'])
    .where('connections.user_id', '=', userId);
  if (statuses) query = query.where('connections.status', 'in', statuses);
  return query.orderBy('connections.created_at').orderBy('providers.provider_name').execute();
}

export async function insertConnection(db: Executor, row: ConnectionRow): Promise<void> {
  await db.insertInto('connections').values(row).execute();
}

export async function setConnectionStatus(
  db: Executor,
  userId: number,
  providerHash: string,
  status: ConnectionStatus,
  now: string,
): Promise<void> {
  await db
    .updateTable('connections')
    .set({ status, updated_at: now })
    .where('user_id', '=', userId)
    .where('provider_hash', '=', providerHash)
    .execute();
}

/** Notes that the provider created a subscription for the user (a later reject then revokes instead of deleting). */
export async function markHadSubscriptions(db: Executor, userId: number, providerHash: string): Promise<void> {
  await db
    .updateTable('connections')
    .set({ had_subscriptions: 1 })
    .where('user_id', '=', userId)
    .where('provider_hash', '=', providerHash)
    .execute();
}

export async function deleteConnection(db: Executor, userId: number, providerHash: string): Promise<void> {
  await db.deleteFrom('connections').where('user_id', '=', userId).where('provider_hash', '=', providerHash).execute();
}
