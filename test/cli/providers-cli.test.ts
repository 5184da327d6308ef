// `subweave providers create` run in-process against a real SQLite file or PostgreSQL schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { hashToken } from '../../src/shared/tokens.js';
import { createUser } from '../../src/modules/users/users.service.js';
import { scratchDatabaseUrl, testDatabaseKinds } from '../support/harness.js';
import { runCli as cli } from '../support/cli.js';

for (const kind of testDatabaseKinds()) {
  describe(`subweave providers CLI [${kind}]`, () => {
    let env: Record<string, string> = {};
    let cleanup: () => Promise<void> = async () => {};

    beforeAll(async () => {
      const scratch = await scratchDatabaseUrl(kind);
      env = { DATABASE_URL: scratch.url };
      cleanup = scratch.cleanup;
    });
    afterAll(() => cleanup());

    const withDb = async <T>(work: (handle: ReturnType<typeof createDatabase>) => Promise<T>): Promise<T> => {
      const handle = createDatabase(env['DATABASE_URL'] as string);
      try {
        await migrateToLatest(handle);
        return await work(handle);
      } finally {
        await handle.close();
      }
    };
    const providerRow = (name: string) =>
      withDb((h) => h.db.selectFrom('providers').selectAll().where('provider_name', '=', name).executeTakeFirst());

    // One test walks through the cases in order: each depends on what the one before created.
    it('creates a provider once per owner and name, printing its token once; refuses bad input clearly', async () => {
      await withDb(async (h) => {
        await createUser(h.db, 501);
        await createUser(h.db, 502);
      });
      const created = await cli(['providers', 'create', '501', 'my-vpn-bot', 'https://bot.example.com'], env);
      expect(created.code, created.stderr).toBe(0);
      const token = created.stdout.trim();
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(created.stderr).toContain('my-vpn-bot');
      const row = await providerRow('my-vpn-bot');
      expect(row).toMatchObject({ owner_user_id: 501, provider_url: 'https://bot.example.com', is_active: 1 });
      expect(row?.token_hash).toBe(hashToken(token));

      const noUrl = await cli(['providers', 'create', '502', 'no-url'], env);
      expect(noUrl.code, noUrl.stderr).toBe(0);
      expect((await providerRow('no-url'))?.provider_url).toBe('');

      const orphan = await cli(['providers', 'create', '999501', 'orphan'], env);
      expect(orphan.code).toBe(1);
      expect(orphan.stdout).toBe('');
      expect(orphan.stderr).toMatch(/owner user 999501 not found.*users create 999501/);

      const second = await cli(['providers', 'create', '501', 'another'], env);
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/already owns a provider/);

      const badName = await cli(['providers', 'create', '501', 'Bad--Name'], env);
      expect(badName.code).toBe(1);
      expect(badName.stderr).toMatch(/provider_name: must be 4-16/);
    });
  });
}

describe('subweave providers CLI usage', () => {
  it('documents the command in the help text', async () => {
    const result = await cli(['--help'], {});
    expect(result.stdout).toContain('providers create <owner_user_id> <name> [url]');
  });

  it('missing arguments are a usage error (exit 2)', async () => {
    const results = await Promise.all(
      [
        ['providers', 'create'],
        ['providers', 'create', '5'],
        ['providers', 'create', 'x', 'name'],
      ].map((args) => cli(args, { DATABASE_URL: 'sqlite::memory:' })),
    );
    for (const result of results) {
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('Usage: subweave');
    }
  });
});
