// Config lines are stored with their parsed form, so a cold render reads nodes instead of parsing (docs/architecture.md).
import type { Kysely } from 'kysely';

/**
 * Every column is nullable and written only by code that knows the form's version: a row without it (older rows, or
 * rows written by an instance of an older version) is parsed when read, so no backfill is needed here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // A config source's served line (its URI with the display comment) and that line's parse result, made for the
  // comment held in parsed_comment by the parser of parsed_version.
  await db.schema.alterTable('sources').addColumn('line', 'text').execute();
  await db.schema.alterTable('sources').addColumn('parsed', 'text').execute();
  await db.schema.alterTable('sources').addColumn('parsed_comment', 'text').execute();
  await db.schema.alterTable('sources').addColumn('parsed_version', 'integer').execute();
  // The parse results of an upstream's stored lines (a JSON array in their order), made for the content whose hash
  // is parsed_hash by the parser of parsed_version.
  await db.schema.alterTable('external_cache').addColumn('parsed', 'text').execute();
  await db.schema.alterTable('external_cache').addColumn('parsed_hash', 'text').execute();
  await db.schema.alterTable('external_cache').addColumn('parsed_version', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['parsed_version', 'parsed_hash', 'parsed']) {
    await db.schema.alterTable('external_cache').dropColumn(column).execute();
  }
  for (const column of ['parsed_version', 'parsed_comment', 'parsed', 'line']) {
    await db.schema.alterTable('sources').dropColumn(column).execute();
  }
}
