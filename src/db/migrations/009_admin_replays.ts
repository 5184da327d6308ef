// Admin signatures accepted within their window, so instances sharing a database refuse a replay without Redis (docs/security.md).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('admin_replays')
    .addColumn('signature_hash', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('admin_replays_expires_idx').on('admin_replays').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('admin_replays').execute();
}
