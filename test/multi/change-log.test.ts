// The change log on its own: what one instance records, another applies, including late commits, catch-up and pruning.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ChangeLog, type Change, type ChangeBatch } from '../../src/changes/change-log.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { describeEachDatabase, scratchDatabaseUrl } from '../support/harness.js';
import { withClockAhead } from '../support/time.js';

describeEachDatabase('change log', (kind) => {
  const handles: DatabaseHandle[] = [];
  let cleanup = async () => {};
  let url = '';

  beforeAll(async () => {
    const scratch = await scratchDatabaseUrl(kind);
    ({ url, cleanup } = scratch);
    for (let i = 0; i < 2; i++) {
      const handle = createDatabase(url);
      await migrateToLatest(handle);
      handles.push(handle);
    }
  });
  afterAll(async () => {
    for (const handle of handles) await handle.close();
    await cleanup();
  });

  /** A started log on `handle` whose polls the test drives by hand (the timer is slow on purpose). */
  async function reader(
    handle: DatabaseHandle,
    retentionMs?: number,
  ): Promise<{ log: ChangeLog; seen: ChangeBatch[] }> {
    const log = new ChangeLog(handle, { pollMs: 60_000, ...(retentionMs ? { retentionMs } : {}) });
    const seen: ChangeBatch[] = [];
    log.subscribe((batch) => void seen.push(batch));
    await log.start();
    return { log, seen };
  }
  const flat = (seen: ChangeBatch[]): Change[] => seen.flatMap((batch) => (batch === 'everything' ? [] : [...batch]));

  it('applies on another instance what one instance wrote, and on the writer at once after commit', async () => {
    const [a, b] = handles as [DatabaseHandle, DatabaseHandle];
    const writer = await reader(a);
    const other = await reader(b);
    await writer.log.write(async (_trx, record) => {
      record({ kind: 'subscription', token: 'tok-1' });
      record({ kind: 'bans' });
    });
    expect(flat(writer.seen)).toEqual([{ kind: 'subscription', token: 'tok-1' }, { kind: 'bans' }]);
    expect(other.seen).toEqual([]);
    await other.log.applyNew();
    expect(flat(other.seen)).toEqual([{ kind: 'subscription', token: 'tok-1' }, { kind: 'bans' }]);
    // The writer's own poll does not hand its own entries out again.
    await writer.log.applyNew();
    expect(flat(writer.seen)).toHaveLength(2);
    await writer.log.close();
    await other.log.close();
  });

  it('records nothing when the write rolls back', async () => {
    const [a, b] = handles as [DatabaseHandle, DatabaseHandle];
    const other = await reader(b);
    const writer = new ChangeLog(a);
    await expect(
      writer.write(async (_trx, record) => {
        record({ kind: 'user', userId: 5 });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await other.log.applyNew();
    expect(other.seen).toEqual([]);
    await other.log.close();
  });

  it.runIf(kind === 'postgres')('applies an entry whose transaction commits after a later one', async () => {
    const [a, b] = handles as [DatabaseHandle, DatabaseHandle];
    const other = await reader(b);
    const writer = new ChangeLog(a);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let recorded = () => {};
    const started = new Promise<void>((resolve) => (recorded = resolve));
    const slow = writer.write(async (trx, record) => {
      record({ kind: 'url', url: 'https://slow.example/' });
      // Take the id now (the log appends at the end of the work): a first entry written through the same transaction.
      await trx
        .insertInto('change_log')
        .values({ kind: 'url', subject: 'https://slow-first.example/', created_at: new Date().toISOString() })
        .execute();
      recorded();
      await held;
    });
    await started;
    await writer.write(async (_trx, record) => record({ kind: 'url', url: 'https://fast.example/' }));
    await other.log.applyNew();
    expect(flat(other.seen)).toEqual([{ kind: 'url', url: 'https://fast.example/' }]);
    release();
    await slow;
    await other.log.applyNew();
    expect(flat(other.seen).map((change) => (change.kind === 'url' ? change.url : ''))).toEqual([
      'https://fast.example/',
      'https://slow-first.example/',
      'https://slow.example/',
    ]);
    await other.log.close();
  });

  it('tells a reader that was away longer than the log keeps to drop everything, and prunes old entries', async () => {
    const [a, b] = handles as [DatabaseHandle, DatabaseHandle];
    const other = await reader(b, 200);
    const writer = new ChangeLog(a, { retentionMs: 200 });
    await writer.write(async (_trx, record) => record({ kind: 'templates' }));
    await withClockAhead(250, async () => {
      await other.log.applyNew();
      expect(other.seen[0]).toBe('everything');
      // That poll pruned what is older than 200 ms.
      const left = await b.db.selectFrom('change_log').select('kind').where('kind', '=', 'templates').execute();
      expect(left).toEqual([]);
    });
    await other.log.close();
  });
});
