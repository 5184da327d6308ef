// A consistent copy of the embedded SQLite database while the service keeps running (SQLite's online backup API).
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';

export class BackupError extends Error {}

/** Copies the SQLite database of `databaseUrl` to `target`, a new file; resolves to the number of pages copied. */
export async function backupSqlite(databaseUrl: string, target: string): Promise<number> {
  if (!databaseUrl.startsWith('sqlite:')) {
    throw new BackupError(
      'DATABASE_URL is PostgreSQL: back it up with pg_dump (for example `pg_dump "$DATABASE_URL" > subweave.sql`)',
    );
  }
  const source = databaseUrl.slice('sqlite:'.length);
  if (source === ':memory:') throw new BackupError('an in-memory database cannot be backed up');
  if (!existsSync(source)) throw new BackupError(`no database at ${source} (check DATABASE_URL)`);
  if (existsSync(target)) throw new BackupError(`${target} exists; choose a new file name`);
  if (!existsSync(dirname(target))) throw new BackupError(`the folder of ${target} does not exist`);
  // A connection of its own: the backup reads pages while writers of the running service go on (WAL mode).
  const database = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    const result = await database.backup(target);
    return result.totalPages;
  } finally {
    database.close();
  }
}
