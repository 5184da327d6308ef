// A consistent copy of the embedded SQLite database while the service keeps running (SQLite's online backup API).
import { randomBytes } from 'node:crypto';
import { closeSync, constants, existsSync, linkSync, lstatSync, openSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import SQLite from 'better-sqlite3';

export class BackupError extends Error {}

/** Owner read and write only: a backup holds every API token hash and subscription token. */
export const BACKUP_MODE = 0o600;

/**
 * Copies the SQLite database of `databaseUrl` to `target`, a new file of mode 0600; resolves to the number of pages
 * copied. The copy is written to a fresh file beside the target and then hard-linked to the target's name, which
 * fails when anything is there, a symbolic link (dangling or not) included: nothing is ever written through a link.
 */
export async function backupSqlite(databaseUrl: string, target: string): Promise<number> {
  if (!databaseUrl.startsWith('sqlite:')) {
    throw new BackupError(
      'DATABASE_URL is PostgreSQL: back it up with pg_dump (for example `pg_dump "$DATABASE_URL" > subweave.sql`)',
    );
  }
  const source = databaseUrl.slice('sqlite:'.length);
  if (source === ':memory:') throw new BackupError('an in-memory database cannot be backed up');
  if (!existsSync(source)) throw new BackupError(`no database at ${source} (check DATABASE_URL)`);
  if (occupied(target)) throw new BackupError(`${target} exists; choose a new file name`);
  if (!existsSync(dirname(target))) throw new BackupError(`the folder of ${target} does not exist`);
  const partial = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.partial`);
  // O_EXCL | O_NOFOLLOW: our own new file, made with the final mode before SQLite writes a byte into it.
  closeSync(
    openSync(partial, constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_WRONLY, BACKUP_MODE),
  );
  try {
    const pages = await copyInto(source, partial);
    try {
      linkSync(partial, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new BackupError(`${target} exists; choose a new file name`);
      }
      throw error;
    }
    return pages;
  } finally {
    rmSync(partial, { force: true });
  }
}

/** Anything at the path, a symbolic link whose target is missing included (existsSync follows links). */
function occupied(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

async function copyInto(source: string, destination: string): Promise<number> {
  // A connection of its own: the backup reads pages while writers of the running service go on (WAL mode).
  const database = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    const result = await database.backup(destination);
    return result.totalPages;
  } finally {
    database.close();
  }
}
