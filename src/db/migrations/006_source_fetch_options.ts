// Fetch options per external source and the state of the shrink guard per cached upstream (docs/api.md, Fetch options).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The canonical JSON of the source's fetch options (fetch/fetch-options.ts), null for none.
  await db.schema.alterTable('sources').addColumn('fetch_options', 'text').execute();
  // A shrunken result held back: a fingerprint of its configs and on how many consecutive fetches it came.
  await db.schema.alterTable('external_cache').addColumn('shrink_hash', 'text').execute();
  await db.schema
    .alterTable('external_cache')
    .addColumn('shrink_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('external_cache').dropColumn('shrink_count').execute();
  await db.schema.alterTable('external_cache').dropColumn('shrink_hash').execute();
  await db.schema.alterTable('sources').dropColumn('fetch_options').execute();
}
