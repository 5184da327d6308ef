// Applies the numbered migrations, safely when several instances start at once (PostgreSQL advisory lock, SQLite BEGIN IMMEDIATE).
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { DatabaseHandle } from './database.js';
import * as initialSchema from './migrations/001_initial_schema.js';
import * as changeLog from './migrations/002_change_log.js';
import * as externalContentHash from './migrations/003_external_content_hash.js';
import * as formatSettings from './migrations/004_format_settings.js';
import * as linkSettings from './migrations/005_link_settings.js';
import * as sourceFetchOptions from './migrations/006_source_fetch_options.js';
import * as sourcesTypeIndex from './migrations/007_sources_type_index.js';
import * as unparseableBackoff from './migrations/008_unparseable_backoff.js';
import * as adminReplays from './migrations/009_admin_replays.js';
import * as parsedLines from './migrations/010_parsed_lines.js';
import * as eventsAndAudit from './migrations/011_events_and_audit.js';
import * as subscriptionTransforms from './migrations/012_subscription_transforms.js';
import * as webhooks from './migrations/013_webhooks.js';
import * as requestHistory from './migrations/014_request_history.js';
import * as sessions from './migrations/015_sessions.js';
import * as auditEventIdNullable from './migrations/016_audit_event_id_nullable.js';

const migrations: Record<string, Migration> = {
  '001_initial_schema': initialSchema,
  '002_change_log': changeLog,
  '003_external_content_hash': externalContentHash,
  '004_format_settings': formatSettings,
  '005_link_settings': linkSettings,
  '006_source_fetch_options': sourceFetchOptions,
  '007_sources_type_index': sourcesTypeIndex,
  '008_unparseable_backoff': unparseableBackoff,
  '009_admin_replays': adminReplays,
  '010_parsed_lines': parsedLines,
  '011_events_and_audit': eventsAndAudit,
  '012_subscription_transforms': subscriptionTransforms,
  '013_webhooks': webhooks,
  '014_request_history': requestHistory,
  '015_sessions': sessions,
  '016_audit_event_id_nullable': auditEventIdNullable,
};

/** Every migration, in the order they apply. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);

/**
 * On SQLite the whole run shares one `BEGIN IMMEDIATE` transaction (see database.ts); a failing migration rolls it
 * back and opens a fresh one for the closing COMMIT, so a failed run leaves the schema as it was.
 */
function atomicOnSqlite(migration: Migration): Migration {
  return {
    up: async (db) => {
      try {
        await migration.up(db);
      } catch (error) {
        await sql`rollback`.execute(db);
        await sql`begin immediate`.execute(db);
        throw error;
      }
    },
  };
}

function providerFor(dialect: DatabaseHandle['dialect']): MigrationProvider {
  const list =
    dialect === 'sqlite'
      ? Object.fromEntries(Object.entries(migrations).map(([name, migration]) => [name, atomicOnSqlite(migration)]))
      : migrations;
  return { getMigrations: () => Promise.resolve(list) };
}

/** Returns the names of the migrations applied by this call. */
export async function migrateToLatest(database: DatabaseHandle): Promise<string[]> {
  const db = database.db as unknown as Kysely<unknown>;
  // Kysely looks for its bookkeeping tables in every schema unless told one; pin it to ours on PostgreSQL.
  const schema = database.dialect === 'postgres' ? await currentSchema(db) : undefined;
  const migrator = new Migrator({
    db,
    provider: providerFor(database.dialect),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    if (attempt >= SCHEMA_RACE_ATTEMPTS || !isSchemaDroppedMeanwhile(error)) {
      throw error instanceof Error ? error : new Error(String(error));
    }
    // A short, random pause so the next listing does not land on the same burst of drops.
    await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40));
  }
}

/** Enough for a server whose schemas are created and dropped without pause (test/multi/migrate-schema-race.test.ts). */
const SCHEMA_RACE_ATTEMPTS = 20;

/**
 * Kysely's migrator lists the tables of every schema on the server to find its own; when another schema is dropped
 * during that listing (other deployments or test runs sharing the database), PostgreSQL answers 3F000. Each run is
 * one transaction, so trying again is safe.
 */
function isSchemaDroppedMeanwhile(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '3F000';
}

async function currentSchema(db: Kysely<unknown>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? 'public';
}
