// Applies the numbered migrations; Kysely's migration lock makes concurrent starts on PostgreSQL safe.
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './types.js';
import * as initialSchema from './migrations/001_initial_schema.js';

const migrations: Record<string, Migration> = {
  '001_initial_schema': initialSchema,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

/**
 * Returns the names of the migrations applied by this call. `schema` pins Kysely's bookkeeping tables to one
 * PostgreSQL schema (used by tests that isolate themselves in a schema).
 */
export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<string[]> {
  const migrator = new Migrator({ db: db as unknown as Kysely<unknown>, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
