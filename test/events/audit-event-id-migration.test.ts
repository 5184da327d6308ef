// Migration 016 on both databases: the audit log's '' event ids become null, every other row and id stays, new entries
// may store null, ids keep counting up, and the indexes are there; its down migration restores the NOT NULL column.
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { down, up } from '../../src/db/migrations/016_audit_event_id_nullable.js';
import { describeEachDatabase, openTestDatabase, type TestDatabase } from '../support/harness.js';

const entry = (eventId: string | null, userId: number | null) => ({
  created_at: new Date().toISOString(),
  actor_kind: 'admin',
  actor_id: 'admin',
  client_ip: null,
  request_id: null,
  action: 'webhook.create',
  target: 'webhook:w1',
  user_id: userId,
  event_id: eventId,
  summary: '{}',
});

describeEachDatabase('migration 016: nullable audit event_id', (kind) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await openTestDatabase(kind);
  });
  afterEach(() => database.close());

  async function indexes(db: Kysely<unknown>): Promise<string[]> {
    const found =
      kind === 'sqlite'
        ? await sql<{ name: string }>`select name from sqlite_master
            where type = 'index' and tbl_name = 'audit_log' and name like 'audit_log_%'`.execute(db)
        : await sql<{ name: string }>`select indexname as name from pg_indexes
            where tablename = 'audit_log' and schemaname = current_schema() and indexname like 'audit_log_%'
              and indexname <> 'audit_log_pkey'`.execute(db);
    return found.rows.map((row) => row.name).sort();
  }

  it("turns '' into null and keeps every row, id and index", async () => {
    const db = database.handle.db;
    const raw = db as unknown as Kysely<unknown>;
    await down(raw);
    // The shape before 016: NOT NULL, '' for "no event".
    await expect(db.insertInto('audit_log').values(entry(null, null)).execute()).rejects.toThrow();
    await db
      .insertInto('audit_log')
      .values([entry('', 7), entry('evt_1', 7), entry('evt_2', null)])
      .execute();
    const before = await db.selectFrom('audit_log').select(['seq', 'event_id']).orderBy('seq').execute();
    // The newest entry is gone (pruned, say): its id must still not be handed out again.
    await db.deleteFrom('audit_log').where('seq', '=', before[2]!.seq).execute();

    await up(raw);
    const after = await db.selectFrom('audit_log').select(['seq', 'event_id', 'user_id']).orderBy('seq').execute();
    expect(after.map((row) => ({ ...row, seq: Number(row.seq), user_id: Number(row.user_id) }))).toEqual([
      { seq: Number(before[0]!.seq), event_id: null, user_id: 7 },
      { seq: Number(before[1]!.seq), event_id: 'evt_1', user_id: 7 },
    ]);
    await db.insertInto('audit_log').values(entry(null, null)).execute();
    const newest = await db.selectFrom('audit_log').select('seq').orderBy('seq', 'desc').executeTakeFirstOrThrow();
    expect(Number(newest.seq)).toBeGreaterThan(Number(before[2]!.seq));
    expect(await indexes(raw)).toEqual(['audit_log_created_idx', 'audit_log_user_idx']);

    // Down again: null back to '' under NOT NULL.
    await down(raw);
    const restored = await db.selectFrom('audit_log').select('event_id').orderBy('seq').execute();
    expect(restored.map((row) => row.event_id)).toEqual(['', 'evt_1', '']);
    await expect(db.insertInto('audit_log').values(entry(null, null)).execute()).rejects.toThrow();
    expect(await indexes(raw)).toEqual(['audit_log_created_idx', 'audit_log_user_idx']);
  });
});
