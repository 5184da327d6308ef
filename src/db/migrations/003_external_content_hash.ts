// External content is stored as capped, de-duplicated config lines with a hash, so a resolution reads each distinct content once (docs/architecture.md, Where state lives).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Null for rows written before this migration: they are read by URL until their next successful fetch.
  await db.schema.alterTable('external_cache').addColumn('content_hash', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('external_cache').dropColumn('content_hash').execute();
}
