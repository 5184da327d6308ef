// Database access for provider accounts; their API tokens are stored only as SHA-256 hashes.
import type { Dialect } from '../../db/database.js';
import { lockRows, type Executor } from '../../db/executor.js';
import type { ProviderRow } from '../../db/types.js';

export function findProviderByHash(db: Executor, providerHash: string): Promise<ProviderRow | undefined> {
  return db.selectFrom('providers').selectAll().where('provider_hash', '=', providerHash).executeTakeFirst();
}

export function findProviderByName(db: Executor, name: string): Promise<ProviderRow | undefined> {
  return db.selectFrom('providers').selectAll().where('provider_name', '=', name).executeTakeFirst();
}

export function findProviderByOwner(db: Executor, ownerUserId: number): Promise<ProviderRow | undefined> {
  return db.selectFrom('providers').selectAll().where('owner_user_id', '=', ownerUserId).executeTakeFirst();
}

export function findProviderByTokenHash(db: Executor, tokenHash: string): Promise<ProviderRow | undefined> {
  return db.selectFrom('providers').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Locks the provider's row until the transaction ends (PostgreSQL); false when there is no such provider. */
export async function lockProvider(db: Executor, dialect: Dialect, providerHash: string): Promise<boolean> {
  const row = await lockRows(
    db.selectFrom('providers').select('provider_hash').where('provider_hash', '=', providerHash),
    dialect,
  ).executeTakeFirst();
  return row !== undefined;
}

export function listProviders(db: Executor): Promise<ProviderRow[]> {
  return db.selectFrom('providers').selectAll().orderBy('created_at').orderBy('provider_name').execute();
}

export async function insertProvider(db: Executor, row: ProviderRow): Promise<void> {
  await db.insertInto('providers').values(row).execute();
}

export async function updateProvider(
  db: Executor,
  providerHash: string,
  changes: Partial<Pick<ProviderRow, 'provider_name' | 'provider_url' | 'is_active' | 'token_hash'>> & {
    updated_at: string;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('providers')
    .set(changes)
    .where('provider_hash', '=', providerHash)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteProvider(db: Executor, providerHash: string): Promise<boolean> {
  const result = await db.deleteFrom('providers').where('provider_hash', '=', providerHash).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
