// The subweave command run in-process against a real database file or PostgreSQL schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.js';
import { hashToken } from '../../src/shared/tokens.js';
import { scratchDatabaseUrl, testDatabaseKinds } from '../support/harness.js';
import { runCli as cli } from '../support/cli.js';

for (const kind of testDatabaseKinds()) {
  describe(`subweave CLI [${kind}]`, () => {
    let databaseUrl = '';
    let cleanup: () => Promise<void> = async () => {};

    beforeAll(async () => {
      ({ url: databaseUrl, cleanup } = await scratchDatabaseUrl(kind));
    });
    afterAll(() => cleanup());

    const tokenWorks = async (userId: number, token: string) => {
      const handle = createDatabase(databaseUrl);
      try {
        const row = await handle.db
          .selectFrom('users')
          .select('token_hash')
          .where('user_id', '=', userId)
          .executeTakeFirst();
        return row?.token_hash === hashToken(token);
      } finally {
        await handle.close();
      }
    };

    it('migrate applies the schema once, then reports it is up to date', async () => {
      const first = await cli(['migrate'], { DATABASE_URL: databaseUrl });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toContain('001_initial_schema');
      const second = await cli(['migrate'], { DATABASE_URL: databaseUrl });
      expect(second.code).toBe(0);
      expect(second.stderr).toContain('up to date');
    });

    it('users create prints a token once and refuses a duplicate id', async () => {
      const created = await cli(['users', 'create', '4242'], { DATABASE_URL: databaseUrl });
      expect(created.code, created.stderr).toBe(0);
      const token = created.stdout.trim();
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await tokenWorks(4242, token)).toBe(true);

      const again = await cli(['users', 'create', '4242'], { DATABASE_URL: databaseUrl });
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/already exists/);
      expect(again.stdout).toBe('');
    });

    it('users token replaces the old token', async () => {
      const created = await cli(['users', 'create', '4343'], { DATABASE_URL: databaseUrl });
      const oldToken = created.stdout.trim();
      const rotated = await cli(['users', 'token', '4343'], { DATABASE_URL: databaseUrl });
      expect(rotated.code, rotated.stderr).toBe(0);
      const newToken = rotated.stdout.trim();
      expect(newToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(newToken).not.toBe(oldToken);
      expect(await tokenWorks(4343, newToken)).toBe(true);
      expect(await tokenWorks(4343, oldToken)).toBe(false);
    });

    it('users token for an unknown user fails', async () => {
      const result = await cli(['users', 'token', '999999'], { DATABASE_URL: databaseUrl });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/not found/i);
    });
  });
}

describe('subweave CLI without a database', () => {
  it('prints help with examples', async () => {
    const result = await cli(['--help'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('users create <user_id>');
    expect(result.stdout).toContain('Examples:');
  });

  it.each([['0'], ['-5'], ['abc'], ['1.5'], ['99999999999999999999']])(
    'rejects user_id %s with usage exit 2',
    async (id) => {
      const result = await cli(['users', 'create', id], { DATABASE_URL: 'sqlite::memory:' });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('user_id must be a positive integer');
    },
  );

  it('rejects an unknown command', async () => {
    const result = await cli(['frobnicate'], { DATABASE_URL: 'sqlite::memory:' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown command');
  });

  it('reports every invalid variable at once and exits 1', async () => {
    const result = await cli(['migrate'], { PORT: 'eighty', DATABASE_URL: 'mysql://x', FETCH_ALLOW_PRIVATE: 'maybe' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PORT');
    expect(result.stderr).toContain('DATABASE_URL');
    expect(result.stderr).toContain('FETCH_ALLOW_PRIVATE');
  });
});
