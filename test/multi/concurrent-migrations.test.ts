// Instances starting together on one database all migrate without errors and leave one complete schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { MIGRATION_NAMES, migrateToLatest } from '../../src/db/migrate.js';
import { scratchDatabaseUrl, testDatabaseKinds } from '../support/harness.js';
import { buildCli, CLI_TEST_TIMEOUT_MS, spawnCli } from '../support/cli.js';

for (const kind of testDatabaseKinds()) {
  describe(`migrations started by several instances at once [${kind}]`, { timeout: CLI_TEST_TIMEOUT_MS }, () => {
    let url = '';
    let cleanup = async () => {};

    beforeAll(async () => {
      ({ url, cleanup } = await scratchDatabaseUrl(kind));
      await buildCli();
    }, CLI_TEST_TIMEOUT_MS);
    afterAll(() => cleanup());

    async function schemaWorks(): Promise<void> {
      const handle = createDatabase(url);
      try {
        expect(await migrateToLatest(handle)).toEqual([]);
        await handle.db
          .insertInto('users')
          .values({ user_id: 1, user_hash: 'h', token_hash: 't', is_active: 1, created_at: 'x', updated_at: 'x' })
          .execute();
        expect(await handle.db.selectFrom('users').select('user_id').execute()).toEqual([{ user_id: 1 }]);
      } finally {
        await handle.close();
      }
    }

    // Separate processes, as real instances are: better-sqlite3 is synchronous, so in-process handles would wait on
    // each other's file lock while blocking the event loop that could release it.
    it('applies every migration once when two `subweave migrate` processes race', async () => {
      const runs = await Promise.all([
        spawnCli(['migrate'], { DATABASE_URL: url }),
        spawnCli(['migrate'], { DATABASE_URL: url }),
      ]);
      for (const run of runs) expect(run.code, run.stderr).toBe(0);
      const reports = runs.map((run) => run.stderr).join('\n');
      expect(MIGRATION_NAMES.length).toBeGreaterThanOrEqual(5);
      for (const name of MIGRATION_NAMES) expect(reports.match(new RegExp(name, 'g')), name).toHaveLength(1);
      expect(reports).toContain('up to date');
      await schemaWorks();
    });

    it.skipIf(kind === 'sqlite')('applies every migration once when three pools of one process race', async () => {
      const scratch = await scratchDatabaseUrl(kind);
      const handles: DatabaseHandle[] = [
        createDatabase(scratch.url),
        createDatabase(scratch.url),
        createDatabase(scratch.url),
      ];
      try {
        const applied = await Promise.all(handles.map((handle) => migrateToLatest(handle)));
        expect(applied.flat().sort()).toEqual([...MIGRATION_NAMES]);
      } finally {
        for (const handle of handles) await handle.close();
        await scratch.cleanup();
      }
    });
  });
}
