// Per-subscription link settings, and the usage numbers each upstream sent with its last good content (docs/api.md, Link settings).
import { sql, type Kysely } from 'kysely';

/** Integer columns: bytes and unix seconds outgrow 32 bits, so bigint (SQLite integers are 64-bit anyway). */
const SUBSCRIPTION_COLUMNS: Array<[string, 'integer' | 'bigint' | 'text', string | number | null]> = [
  ['update_interval_hours', 'integer', 1],
  ['support_url', 'text', null],
  ['web_page_url', 'text', null],
  ['announce', 'text', null],
  ['userinfo_mode', 'text', 'none'],
  ['userinfo_upload', 'bigint', null],
  ['userinfo_download', 'bigint', null],
  ['userinfo_total', 'bigint', null],
  ['userinfo_expire', 'bigint', null],
];

const CACHE_COLUMNS = ['userinfo_upload', 'userinfo_download', 'userinfo_total', 'userinfo_expire'];

export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds a single column at a time.
  for (const [name, type, fallback] of SUBSCRIPTION_COLUMNS) {
    await db.schema
      .alterTable('subscriptions')
      .addColumn(name, type, (c) =>
        fallback === null ? c : c.notNull().defaultTo(typeof fallback === 'number' ? fallback : sql.lit(fallback)),
      )
      .execute();
  }
  // Null on every column when the last good fetch carried no subscription-userinfo header.
  for (const name of CACHE_COLUMNS) await db.schema.alterTable('external_cache').addColumn(name, 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of CACHE_COLUMNS) await db.schema.alterTable('external_cache').dropColumn(name).execute();
  for (const [name] of SUBSCRIPTION_COLUMNS) await db.schema.alterTable('subscriptions').dropColumn(name).execute();
}
