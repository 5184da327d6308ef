// Starts the service: start-up checks, database (retried), context, HTTP; and a shutdown that ends in bounded time.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { pino, type LoggerOptions } from 'pino';
import { turnBatchedLog, type LogWriter } from './shared/turn-batched-log.js';
import { safeSerializers } from './http/request-log.js';
import { buildApp } from './app.js';
import { adminSecretWarning, type Config } from './config.js';
import { createContext } from './context.js';
import { createDatabase, type DatabaseHandle } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { isDatabaseUnavailable } from './db/errors.js';
import type { Role } from './cli.js';

/** How long an unreachable database is retried at start before the process gives up. */
const START_RETRY_MS = 30_000;
const DEFAULT_SQLITE_FOLDER = resolve('data');

/** A start-up problem: one line naming it and the variable to change, printed without a stack. */
export class StartupError extends Error {}

export function loggerOptions(config: Config): LoggerOptions {
  return {
    level: config.logLevel,
    serializers: safeSerializers,
    ...(process.stdout.isTTY
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:standard' } } }
      : {}),
  };
}

/**
 * JSON lines to stdout, written asynchronously and flushed at exit, as pino's default, but handed to the writer once
 * per event-loop turn (turn-batched-log.ts): one write per turn instead of one per few lines. Under wrk the warm
 * link's p99 fell by a quarter (docs/benchmarks.md, the warm link).
 */
function logDestination() {
  // In buffer mode SonicBoom's write takes Buffers; its type declares strings only.
  const writer = pino.destination({ dest: 1, contentMode: 'buffer' }) as unknown as LogWriter;
  return turnBatchedLog(writer, (listener) => process.once('exit', listener));
}

export async function serve(config: Config, env: NodeJS.ProcessEnv = process.env, role: Role = 'all'): Promise<void> {
  const log = (
    process.stdout.isTTY ? pino(loggerOptions(config)) : pino(loggerOptions(config), logDestination())
  ) as FastifyBaseLogger;
  try {
    await start(config, env, log, role);
  } catch (error) {
    // A failed start may leave a pool or a Redis connection open: the process ends here instead of waiting on them.
    const text = error instanceof StartupError ? error.message : error instanceof Error ? error.stack : String(error);
    process.stderr.write(`subweave: ${text}\n`);
    process.exit(1);
  }
}

async function start(config: Config, env: NodeJS.ProcessEnv, log: FastifyBaseLogger, role: Role): Promise<void> {
  if (role !== 'worker' && !env['PUBLIC_BASE_URL'] && !isLoopback(config.host)) {
    log.warn(
      `PUBLIC_BASE_URL is unset while HOST is ${config.host}: links will point to ${config.publicBaseUrl}; set PUBLIC_BASE_URL`,
    );
  }
  const weakSecret = adminSecretWarning(config);
  if (weakSecret) log.warn(weakSecret);
  const database = await openDatabase(config, log);
  const context = await createContext(config, database, { log });
  // A worker answers no HTTP: it refreshes external sources, and its writes reach the API instances via the change log.
  const app = role === 'worker' ? null : await buildApp(context, { logger: log });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal, timeout_ms: config.shutdownTimeoutMs }, 'shutting down');
    // Whatever hangs (an upstream, a client, a pool), the process ends at the deadline.
    setTimeout(() => {
      log.warn('shutdown did not finish in SHUTDOWN_TIMEOUT_MS; exiting now');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    void (async () => {
      context.beginShutdown(); // new requests get 503 shutting_down, connections close after their answer
      const stopRefresher = Promise.all([context.refresher.stop(), context.webhookDelivery.stop()]); // claims nothing new from here on
      await app?.close(); // stops accepting, waits for in-flight requests
      await stopRefresher;
      await context.close();
      await database.close();
    })().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));

  if (app)
    await listen(app, config, async () => {
      await context.close();
      await database.close();
    });
  if (role !== 'api') {
    context.refresher.start();
    context.webhookDelivery.start();
  }
  // Without a listening socket nothing else holds the process open (the refresher's timer does not): a worker lives
  // until a signal ends it.
  if (role === 'worker') setInterval(() => undefined, 60 * 60_000);
  log.info({ role }, role === 'all' ? 'serving the API and refreshing external sources' : `running as ${role}`);
}

/** Listens on HOST:PORT; a port in use or an address that is not ours is a one-line start-up error. */
async function listen(app: FastifyInstance, config: Config, release: () => Promise<void>): Promise<void> {
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await release();
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE')
      throw new StartupError(`port ${config.port} on ${config.host} is in use; set PORT (or HOST) to a free one`);
    if (code === 'EADDRNOTAVAIL')
      throw new StartupError(`cannot listen on ${config.host}: no such local address; change HOST`);
    if (code === 'EACCES') throw new StartupError(`not allowed to listen on port ${config.port}; set PORT above 1023`);
    throw error;
  }
}

/** Opens and migrates the database; an unreachable one is retried for 30 s (logged once). */
async function openDatabase(config: Config, log: FastifyBaseLogger): Promise<DatabaseHandle> {
  const url = config.databaseUrl;
  if (url.startsWith('sqlite:') && url !== 'sqlite::memory:') checkSqliteFolder(url.slice('sqlite:'.length));
  if (!url.startsWith('sqlite:')) checkPostgresUrl(url);
  let database: DatabaseHandle;
  try {
    database = createDatabase(url);
  } catch (error) {
    throw new StartupError(`cannot open the database at ${redact(url)} (${errorText(error)}); check DATABASE_URL`);
  }
  const giveUpAt = Date.now() + START_RETRY_MS;
  let logged = false;
  for (;;) {
    try {
      await migrateToLatest(database);
      break;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) {
        await database.close().catch(() => undefined);
        throw error;
      }
      if (Date.now() >= giveUpAt) {
        await database.close().catch(() => undefined);
        throw new StartupError(
          `the database at ${redact(url)} is unreachable after 30 s (${errorText(error)}); check DATABASE_URL`,
        );
      }
      if (!logged) log.warn({ cause: errorText(error) }, 'database unreachable; retrying for up to 30 s');
      logged = true;
      await new Promise((done) => setTimeout(done, 1000));
    }
  }
  try {
    await database.checkWritable();
  } catch (error) {
    await database.close().catch(() => undefined);
    throw new StartupError(
      `the database at ${redact(url)} does not accept writes (${errorText(error)}); check DATABASE_URL`,
    );
  }
  return database;
}

/** The default ./data/ folder is created; any other missing folder is taken for a mistyped path. */
function checkSqliteFolder(path: string): void {
  const folder = resolve(dirname(path));
  if (existsSync(folder)) return;
  if (folder !== DEFAULT_SQLITE_FOLDER) {
    throw new StartupError(`the folder ${folder} of the SQLite database does not exist; fix DATABASE_URL or create it`);
  }
  mkdirSync(folder, { recursive: true });
}

function checkPostgresUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StartupError('DATABASE_URL is not a valid URL; expected postgres://user:password@host:port/database');
  }
  if (!parsed.hostname && !parsed.searchParams.get('host')) {
    throw new StartupError('DATABASE_URL names no host; expected postgres://user:password@host:port/database');
  }
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

function errorText(error: unknown): string {
  const message =
    error instanceof Error ? error.message || (error as { code?: string }).code || error.name : String(error);
  return message.split('\n')[0] ?? message;
}
