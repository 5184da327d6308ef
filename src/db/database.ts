// Opens the one Kysely instance the service uses, on embedded SQLite or on PostgreSQL, chosen by DATABASE_URL.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { setImmediate as afterPendingIo } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  sql,
  type CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type QueryResult,
} from 'kysely';
import { isDatabaseUnavailable } from './errors.js';
import type { Database } from './types.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Readiness: a write statement that changes no row, so it fails when the database is down or read-only. */
  checkWritable(): Promise<void>;
  /** Connections open and idle, and callers waiting for one (metrics). */
  poolUse(): PoolUse;
  close(): Promise<void>;
}

export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
}

export interface DatabaseOptions {
  /** PostgreSQL only: schema placed first on the search_path (tests isolate themselves with it). */
  schema?: string;
  poolSize?: number;
}

// bigint (int8) columns hold user ids and counters, all within Number.MAX_SAFE_INTEGER.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function createDatabase(url: string, options: DatabaseOptions = {}): DatabaseHandle {
  const { db, poolUse } = url.startsWith('sqlite:')
    ? openSqlite(url.slice('sqlite:'.length))
    : openPostgres(url, options);
  const dialect: Dialect = url.startsWith('sqlite:') ? 'sqlite' : 'postgres';
  return {
    db,
    dialect,
    poolUse,
    checkWritable: async () => {
      await sql`update change_log set subject = subject where id < 0`.execute(db);
    },
    close: () => db.destroy(),
  };
}

interface Opened {
  db: Kysely<Database>;
  poolUse(): PoolUse;
}

function openSqlite(path: string): Opened {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  const dialect = new MigrationLockingSqliteDialect({ database });
  return {
    db: new Kysely<Database>({ dialect }),
    poolUse: () => ({ total: 1, idle: dialect.use.claims > 0 ? 0 : 1, waiting: Math.max(0, dialect.use.claims - 1) }),
  };
}

function openPostgres(url: string, options: DatabaseOptions): Opened {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    // A server that vanishes without closing its connections (a host gone, a dropped route) is noticed by TCP.
    keepAlive: true,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle client's connection dying (a server restart, pg_terminate_backend) must not end the process: the pool
  // drops that client, and the next query opens a new connection or reports the outage to its caller.
  pool.on('error', () => undefined);
  // The same for a client that is checked out but between queries (a transaction, the pool's acquire): a pending
  // query still rejects, so its caller learns of the outage.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return {
    db: new Kysely<Database>({ dialect: new FreshClientPostgresDialect({ pool }) }),
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/**
 * An idle pool client learns that the server closed its connection (a restart, an outage) only when the event loop
 * reads that socket. A process that was busy or descheduled meanwhile handed every idle client out broken, and each
 * request that got one answered 503 although the database was back (docs/reliability.md). So pending I/O runs
 * before a client is taken (the pool drops the clients it finds closed), and a connection-level failure of the first
 * statement on a client, when that statement is a read or a transaction's `begin` (nothing ran yet), is tried once
 * more on another client.
 */
class FreshClientPostgresDialect extends PostgresDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    const take = driver.acquireConnection.bind(driver);
    const release = driver.releaseConnection.bind(driver);
    const acquire = async (): Promise<DatabaseConnection> => {
      // The first turn ends the current loop iteration, the second comes after the next one's poll for I/O.
      await afterPendingIo();
      await afterPendingIo();
      return take();
    };
    driver.acquireConnection = async () => new FirstStatementRetry(await acquire(), acquire, release);
    driver.releaseConnection = async (connection) => {
      const held = (connection as FirstStatementRetry).connection;
      if (held !== null) await release(held);
    };
    return driver;
  }
}

/** Statements that change nothing when they are sent again. */
const REPEATABLE = /^\s*(?:select|begin|start transaction)\b/i;

class FirstStatementRetry implements DatabaseConnection {
  private used = false;

  /** `connection`: the client held, null after a broken one was given back and no other could be had. */
  constructor(
    public connection: DatabaseConnection | null,
    private readonly acquire: () => Promise<DatabaseConnection>,
    private readonly release: (connection: DatabaseConnection) => Promise<void>,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const connection = this.held();
    if (this.used) return connection.executeQuery<R>(query);
    this.used = true;
    try {
      return await connection.executeQuery<R>(query);
    } catch (error) {
      if (!isDatabaseUnavailable(error) || !REPEATABLE.test(query.sql)) throw error;
      this.connection = null;
      await this.release(connection);
      this.connection = await this.acquire();
      return this.connection.executeQuery<R>(query);
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    this.used = true;
    return this.held().streamQuery<R>(query, chunkSize);
  }

  private held(): DatabaseConnection {
    if (this.connection === null)
      throw new Error('Connection terminated: the client was given back after a connection error');
    return this.connection;
  }
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

/**
 * Kysely runs everything on SQLite over one connection, lent to one query or transaction at a time; `use.claims`
 * counts who holds it or waits for it, as a pool's counts would.
 */
class MigrationLockingSqliteDialect extends SqliteDialect {
  readonly use = { claims: 0 };

  override createAdapter(): DialectAdapter {
    return new MigrationLockingSqliteAdapter();
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const acquire = driver.acquireConnection.bind(driver);
    const release = driver.releaseConnection.bind(driver);
    const use = this.use;
    driver.acquireConnection = async () => {
      use.claims++;
      try {
        return await acquire();
      } catch (error) {
        use.claims--;
        throw error;
      }
    };
    driver.releaseConnection = async (connection) => {
      use.claims--;
      await release(connection);
    };
    return driver;
  }
}
