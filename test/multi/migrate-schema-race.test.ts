// Migrations on PostgreSQL must not fail when other schemas on the same server are dropped while they run.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.js';
import { migrateToLatest, MIGRATION_NAMES } from '../../src/db/migrate.js';

const url = process.env['TEST_DATABASE_URL'];

describe.skipIf(!url)('migrations beside schemas being dropped [postgres]', () => {
  it('apply every migration while other schemas come and go', async () => {
    const churn = new pg.Client({ connectionString: url });
    churn.on('error', () => undefined);
    await churn.connect();
    let churning = true;
    const churnLoop = (async () => {
      while (churning) {
        const other = `r_${randomBytes(6).toString('hex')}`;
        await churn.query(`CREATE SCHEMA ${other}; CREATE TABLE ${other}.t (id serial primary key, a text, b text)`);
        await churn.query(`DROP SCHEMA ${other} CASCADE`);
      }
    })();
    const admin = new pg.Client({ connectionString: url });
    admin.on('error', () => undefined);
    await admin.connect();
    try {
      for (let round = 0; round < 8; round++) {
        const schema = `m_${randomBytes(6).toString('hex')}`;
        await admin.query(`CREATE SCHEMA ${schema}`);
        const handle = createDatabase(url as string, { schema, poolSize: 2 });
        try {
          expect(await migrateToLatest(handle)).toEqual(MIGRATION_NAMES);
        } finally {
          await handle.close();
          await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        }
      }
    } finally {
      churning = false;
      await churnLoop;
      await churn.end();
      await admin.end();
    }
  }, 120_000);
});
