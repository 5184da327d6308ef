// The audit log's event_id becomes nullable: null, not '', says an entry's write was no event (webhook endpoint
// management). SQLite cannot drop NOT NULL in place, so there the table is rebuilt with its rows, ids and indexes.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table audit_log alter column event_id drop not null`.execute(db);
    await sql`update audit_log set event_id = null where event_id = ''`.execute(db);
  } else {
    await rebuildOnSqlite(db, { nullable: true });
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`update audit_log set event_id = '' where event_id is null`.execute(db);
    await sql`alter table audit_log alter column event_id set not null`.execute(db);
  } else {
    await rebuildOnSqlite(db, { nullable: false });
  }
}

/** The table as migration 011 made it, event_id aside; the AUTOINCREMENT counter carries over, so no id is reused. */
async function rebuildOnSqlite(db: Kysely<unknown>, { nullable }: { nullable: boolean }): Promise<void> {
  await db.schema
    .createTable('audit_log_next')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('client_ip', 'text')
    .addColumn('request_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint')
    .addColumn('event_id', 'text', (c) => (nullable ? c : c.notNull()))
    .addColumn('summary', 'text', (c) => c.notNull())
    .execute();
  const eventId = nullable ? sql`nullif(event_id, '')` : sql`coalesce(event_id, '')`;
  await sql`insert into audit_log_next
    select seq, created_at, actor_kind, actor_id, client_ip, request_id, action, target, user_id, ${eventId}, summary
    from audit_log`.execute(db);
  const counter = await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'audit_log'`.execute(db);
  await db.schema.dropTable('audit_log').execute();
  await sql`alter table audit_log_next rename to audit_log`.execute(db);
  if (counter.rows[0]) {
    await sql`delete from sqlite_sequence where name = 'audit_log'`.execute(db);
    await sql`insert into sqlite_sequence (name, seq) values ('audit_log', ${counter.rows[0].seq})`.execute(db);
  }
  await db.schema.createIndex('audit_log_created_idx').on('audit_log').column('created_at').execute();
  await db.schema.createIndex('audit_log_user_idx').on('audit_log').columns(['user_id', 'seq']).execute();
}
