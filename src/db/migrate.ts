// Applies the numbered migrations; Kysely's migration lock makes concurrent starts on PostgreSQL safe.
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { DatabaseHandle } from './database.js';
import * as initialSchema from './migrations/001_initial_schema.js';

const migrations: Record<string, Migration> = {
  '001_initial_schema': initialSchema,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

/** Returns the names of the migrations applied by this call. */
export async function migrateToLatest(database: DatabaseHandle): Promise<string[]> {
  const db = database.db as unknown as Kysely<unknown>;
  // Kysely looks for its bookkeeping tables in every schema unless told one; pin it to ours on PostgreSQL.
  const schema = database.dialect === 'postgres' ? await currentSchema(db) : undefined;
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

async function currentSchema(db: Kysely<unknown>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? 'public';
}
