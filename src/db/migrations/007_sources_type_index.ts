// Sources are found by kind without indexing their data: PostgreSQL cannot index a value above about 2.7 kB, and a source may hold 16,384 characters.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sources_type_data_idx').execute();
  await db.schema.createIndex('sources_type_idx').on('sources').column('source_type').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sources_type_idx').execute();
  await db.schema.createIndex('sources_type_data_idx').on('sources').columns(['source_type', 'data']).execute();
}
