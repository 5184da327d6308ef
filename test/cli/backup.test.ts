// `subweave backup <file>`: a consistent copy of a live SQLite database, and a restore from it as docs/deploy.md says.
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  mkdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createUser } from '../../src/modules/users/users.service.js';
import { startTestApp, testConfig } from '../support/harness.js';
import { freshUserId, vlessUri } from '../support/factories.js';
import { runCli as cli } from '../support/cli.js';

describe('subweave backup', () => {
  const dir = mkdtempSync(join(tmpdir(), 'subweave-backup-'));
  const databaseUrl = `sqlite:${join(dir, 'live.db')}`;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('copies a database that is being written to, and the copy serves as the original did', async () => {
    const live = createDatabase(databaseUrl);
    await migrateToLatest(live);
    const { app } = await startTestApp(testConfig({ DATABASE_URL: databaseUrl }), live);
    try {
      const userId = freshUserId();
      const { api_token: token } = await createUser(live.db, userId);
      const created = await app.inject({
        method: 'POST',
        url: '/api/v1/subs',
        headers: { 'api-token': token },
        payload: { name: 'kept', sources: [`${vlessUri()}#Kept`] },
      });
      expect(created.statusCode).toBe(201);
      const subscription = created.json<{ token: string }>().token;
      const linkBefore = (await app.inject({ method: 'GET', url: `/sub/${subscription}/plain` })).body;

      // Writes keep coming while the backup runs: the copy is a consistent snapshot either way.
      const writes = Array.from({ length: 20 }, (_, i) =>
        app.inject({
          method: 'POST',
          url: '/api/v1/subs',
          headers: { 'api-token': token },
          payload: { name: `during-${i}`, sources: [] },
        }),
      );
      const backupFile = join(dir, 'copy.db');
      const result = await cli(['backup', backupFile], { DATABASE_URL: databaseUrl });
      await Promise.all(writes);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/^backed up \d+ pages to /);

      // Restore: the copy put in place of the database file, and a service started on it.
      const restoredPath = join(dir, 'restored.db');
      copyFileSync(backupFile, restoredPath);
      const restored = createDatabase(`sqlite:${restoredPath}`);
      await migrateToLatest(restored);
      const { app: second } = await startTestApp(testConfig({ DATABASE_URL: `sqlite:${restoredPath}` }), restored);
      try {
        const me = await second.inject({ method: 'GET', url: '/api/v1/me', headers: { 'api-token': token } });
        expect(me.statusCode).toBe(200);
        expect(me.json<{ user_id: number }>().user_id).toBe(userId);
        const link = await second.inject({ method: 'GET', url: `/sub/${subscription}/plain` });
        expect(link.body).toBe(linkBefore);
      } finally {
        await second.close();
        await restored.close();
      }
    } finally {
      await app.close();
      await live.close();
    }
  });

  it('refuses to overwrite a file, a missing folder, a missing database and PostgreSQL, with one line each', async () => {
    const existing = join(dir, 'existing.db');
    writeFileSync(existing, 'keep me');
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [['backup', existing], { DATABASE_URL: databaseUrl }, /exists; choose a new file name/],
      [['backup', join(dir, 'no', 'such', 'x.db')], { DATABASE_URL: databaseUrl }, /folder .* does not exist/],
      [['backup', join(dir, 'y.db')], { DATABASE_URL: `sqlite:${join(dir, 'absent.db')}` }, /no database at/],
      [['backup', join(dir, 'z.db')], { DATABASE_URL: 'postgres://127.0.0.1/x' }, /pg_dump/],
    ];
    for (const [args, env, message] of cases) {
      const result = await cli(args, env);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(existsSync(join(dir, 'y.db'))).toBe(false);
    const usage = await cli(['backup'], { DATABASE_URL: databaseUrl });
    expect(usage.code).toBe(2);
  });

  describe('the backup file', () => {
    const folder = join(dir, 'modes');
    beforeAll(async () => {
      const live = createDatabase(databaseUrl);
      await migrateToLatest(live);
      await live.close();
      mkdirSync(folder);
    });

    it('is created with mode 0600 whatever the umask, and nothing else is left in its folder', async () => {
      const target = join(folder, 'private.db');
      const result = await cli(['backup', target], { DATABASE_URL: databaseUrl });
      expect(result.code, result.stderr).toBe(0);
      expect(statSync(target).mode & 0o777).toBe(0o600);
      expect(readdirSync(folder)).toEqual(['private.db']);
      rmSync(target);
    });

    it('is never written through a symbolic link: a dangling link at the target is refused and left as it is', async () => {
      const elsewhere = join(dir, 'elsewhere.db');
      const target = join(folder, 'link.db');
      symlinkSync(elsewhere, target);
      const result = await cli(['backup', target], { DATABASE_URL: databaseUrl });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/link\.db exists; choose a new file name/);
      expect(existsSync(elsewhere)).toBe(false);
      expect(lstatSync(target).isSymbolicLink()).toBe(true);
      expect(readdirSync(folder)).toEqual(['link.db']);
      rmSync(target);
    });

    it('refuses a link to an existing file without touching that file', async () => {
      const victim = join(dir, 'victim.txt');
      writeFileSync(victim, 'keep me');
      const target = join(folder, 'to-victim.db');
      symlinkSync(victim, target);
      const result = await cli(['backup', target], { DATABASE_URL: databaseUrl });
      expect(result.code).toBe(1);
      expect(readFileSync(victim, 'utf8')).toBe('keep me');
      rmSync(target);
    });
  });
});
