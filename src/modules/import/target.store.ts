// What the target database already holds (so an import can refuse it or merge into it), and the import's write through each table's owning store.
import { sql } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Executor } from '../../db/executor.js';
import type { ConnectionRow, NewSource, NewSubscription, ProviderRow, UserRow } from '../../db/types.js';
import { insertUser } from '../users/users.store.js';
import { insertProvider } from '../providers/providers.store.js';
import { insertConnection } from '../connections/connections.store.js';
import { insertSubscription } from '../subscriptions/subscriptions.store.js';
import { insertSources } from '../sources/sources.store.js';
import { insertCacheRows, recordSuccess } from '../fetch/cache.store.js';

export interface TargetKeys {
  users: Array<Pick<UserRow, 'user_id' | 'user_hash' | 'token_hash'>>;
  providers: Array<Pick<ProviderRow, 'provider_hash' | 'provider_name' | 'owner_user_id' | 'token_hash'>>;
  connections: Array<Pick<ConnectionRow, 'user_id' | 'provider_hash'>>;
  subscriptions: Array<{ token: string; user_id: number; scope: string; name: string }>;
  /** Fetch keys that already have good content. */
  fetchedUrls: string[];
}

export const EMPTY_TARGET: TargetKeys = {
  users: [],
  providers: [],
  connections: [],
  subscriptions: [],
  fetchedUrls: [],
};

/**
 * Whether subweave's tables exist where this connection creates them (a dry run must not create them). PostgreSQL:
 * resolved through the search path, never another schema's tables.
 */
export async function hasSubweaveTables(db: Executor, dialect: Dialect): Promise<boolean> {
  const query =
    dialect === 'postgres'
      ? sql<{ present: boolean }>`select to_regclass('users') is not null as present`
      : sql<{ present: number }>`select count(*) as present from sqlite_master where type = 'table' and name = 'users'`;
  const { rows } = await query.execute(db);
  return Boolean(rows[0]?.present);
}

export async function readTargetKeys(db: Executor): Promise<TargetKeys> {
  return {
    users: await db.selectFrom('users').select(['user_id', 'user_hash', 'token_hash']).execute(),
    providers: await db
      .selectFrom('providers')
      .select(['provider_hash', 'provider_name', 'owner_user_id', 'token_hash'])
      .execute(),
    connections: await db.selectFrom('connections').select(['user_id', 'provider_hash']).execute(),
    subscriptions: await db.selectFrom('subscriptions').select(['token', 'user_id', 'scope', 'name']).execute(),
    fetchedUrls: (
      await db.selectFrom('external_cache').select('url').where('fetched_at', 'is not', null).execute()
    ).map((row) => row.url),
  };
}

/** Good content of one upstream, as the refresher would have stored it. */
export interface CacheContent {
  url: string;
  content: string;
  contentHash: string;
  count: number;
  fetchedAt: string;
}

export interface ImportRows {
  users: UserRow[];
  providers: ProviderRow[];
  connections: ConnectionRow[];
  subscriptions: NewSubscription[];
  sources: NewSource[];
  /** Every fetch key the new external sources use (a row each, content or not). */
  cacheKeys: string[];
  cacheContent: CacheContent[];
}

/** Inserts everything in parent-before-child order through the owning stores; run it inside one transaction. */
export async function writeImportRows(trx: Executor, rows: ImportRows, now: string): Promise<void> {
  for (const row of rows.users) await insertUser(trx, row);
  for (const row of rows.providers) await insertProvider(trx, row);
  for (const row of rows.connections) await insertConnection(trx, row);
  for (const row of rows.subscriptions) await insertSubscription(trx, row);
  await insertSources(trx, rows.sources);
  await insertCacheRows(trx, rows.cacheKeys, now);
  for (const entry of rows.cacheContent) {
    // Imported lines are parsed when read until their first fetch here stores their parse results.
    await recordSuccess(trx, entry.url, entry.content, entry.contentHash, entry.count, null, null, entry.fetchedAt);
  }
}
