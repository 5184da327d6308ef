// The last public fetches of each subscription (docs/api.md, request history). Rows follow the subscription row: a
// rotation renames its token in place (ON UPDATE CASCADE) and a deletion removes them (ON DELETE CASCADE).
import { PostgresAdapter, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('request_history')
    .addColumn('seq', postgres ? 'bigserial' : 'integer', (c) =>
      postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('subscription_token', 'text', (c) =>
      c.notNull().references('subscriptions.token').onDelete('cascade').onUpdate('cascade'),
    )
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('format', 'text')
    .addColumn('rule', 'text')
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('client', 'text')
    .addColumn('servers', 'integer')
    .execute();
  await db.schema
    .createIndex('request_history_subscription_idx')
    .on('request_history')
    .columns(['subscription_token', 'at', 'seq'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('request_history').ifExists().execute();
}
