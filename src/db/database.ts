// Opens the one Kysely instance the service uses, on embedded SQLite or on PostgreSQL, chosen by DATABASE_URL.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteAdapter, SqliteDialect, sql, type DialectAdapter } from 'kysely';
import type { Database } from './types.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Readiness: a write statement that changes no row, so it fails when the database is down or read-only. */
  checkWritable(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL only: schema placed first on the search_path (tests isolate themselves with it). */
  schema?: string;
  poolSize?: number;
}

// bigint (int8) columns hold user ids and counters, all within Number.MAX_SAFE_INTEGER.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function createDatabase(url: string, options: DatabaseOptions = {}): DatabaseHandle {
  const db = url.startsWith('sqlite:') ? openSqlite(url.slice('sqlite:'.length)) : openPostgres(url, options);
  const dialect: Dialect = url.startsWith('sqlite:') ? 'sqlite' : 'postgres';
  return {
    db,
    dialect,
    checkWritable: async () => {
      await sql`update change_log set subject = subject where id < 0`.execute(db);
    },
    close: () => db.destroy(),
  };
}

function openSqlite(path: string): Kysely<Database> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  return new Kysely<Database>({ dialect: new MigrationLockingSqliteDialect({ database }) });
}

function openPostgres(url: string, options: DatabaseOptions): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle client's connection dying (a server restart, pg_terminate_backend) must not end the process: the pool
  // drops that client, and the next query opens a new connection or reports the outage to its caller.
  pool.on('error', () => undefined);
  // The same for a client that is checked out but between queries (a transaction, the pool's acquire): a pending
  // query still rejects, so its caller learns of the outage.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * Kysely runs SQLite migrations without a lock or a transaction. Holding `BEGIN IMMEDIATE` from lock to release makes
 * a migration run atomic and serialises processes that start together on one database file (the second waits up to
 * busy_timeout, then finds nothing left to do). migrate.ts rolls the run back when a migration fails.
 */
class MigrationLockingSqliteAdapter extends SqliteAdapter {
  override async acquireMigrationLock(db: Kysely<unknown>): Promise<void> {
    await sql`begin immediate`.execute(db);
  }

  override async releaseMigrationLock(db: Kysely<unknown>): Promise<void> {
    await sql`commit`.execute(db);
  }
}

class MigrationLockingSqliteDialect extends SqliteDialect {
  override createAdapter(): DialectAdapter {
    return new MigrationLockingSqliteAdapter();
  }
}
