// An upstream whose body is unparseable is fetched again only after a growing pause, kept across restarts (docs/reliability.md).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // On how many consecutive fetches the body was unparseable, and until when the refresher leaves the URL alone.
  await db.schema
    .alterTable('external_cache')
    .addColumn('backoff_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('external_cache').addColumn('backoff_until', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('external_cache').dropColumn('backoff_until').execute();
  await db.schema.alterTable('external_cache').dropColumn('backoff_count').execute();
}
