// Test harness: databases (SQLite always, PostgreSQL when TEST_DATABASE_URL is set), Redis (when TEST_REDIS_URL is
// set), and the one builder of test apps with their request helpers.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppOptions } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createContext, type AppContext, type ContextOverrides } from '../../src/context.js';
import type { ProvidersService } from '../../src/modules/providers/providers.service.js';
import { signRequest } from '../../src/modules/admin/signature.js';
import { createRedis, type Redis } from '../../src/redis.js';
import { createTestProvider, createTestUser, TEST_BASE_URL, type TestProvider, type TestUser } from './factories.js';

export { TEST_BASE_URL } from './factories.js';

export type DatabaseKind = 'sqlite' | 'postgres';

export function testDatabaseKinds(): DatabaseKind[] {
  return process.env['TEST_DATABASE_URL'] ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** Declares the suite once per database kind; test names carry the kind. */
export function describeEachDatabase(title: string, body: (kind: DatabaseKind) => void): void {
  for (const kind of testDatabaseKinds()) describe(`${title} [${kind}]`, () => body(kind));
}

export interface TestDatabase {
  handle: DatabaseHandle;
  close(): Promise<void>;
  /** PostgreSQL only: the schema this database lives in. */
  schema?: string;
}

/** A migrated, empty database: in-memory SQLite, or a fresh schema on the TEST_DATABASE_URL server. */
export async function openTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const handle = createDatabase('sqlite::memory:');
    await migrateToLatest(handle);
    return { handle, close: () => handle.close() };
  }
  const url = process.env['TEST_DATABASE_URL'] as string;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await adminQuery(url, `CREATE SCHEMA ${schema}`);
  const handle = createDatabase(url, { schema, poolSize: 4 });
  await migrateToLatest(handle);
  return {
    handle,
    schema,
    close: async () => {
      await handle.close();
      await adminQuery(url, `DROP SCHEMA ${schema} CASCADE`);
    },
  };
}

/**
 * A DATABASE_URL for an empty database that several processes or handles can open: a SQLite file in a temporary
 * folder, or a fresh schema on the TEST_DATABASE_URL server (selected through search_path).
 */
export async function scratchDatabaseUrl(kind: DatabaseKind): Promise<{ url: string; cleanup: () => Promise<void> }> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'subweave-'));
    return {
      url: `sqlite:${join(dir, 'nested', 'test.db')}`,
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const base = process.env['TEST_DATABASE_URL'] as string;
  const schema = `s_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  const options = encodeURIComponent(`-c search_path=${schema}`);
  return {
    url: `${base}${base.includes('?') ? '&' : '?'}options=${options}`,
    cleanup: async () => {
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    },
  };
}

/**
 * Another connection pool on the same PostgreSQL schema, as a second service instance would have (close it before
 * the test database). SQLite in-memory databases cannot be shared, so this is PostgreSQL only.
 */
export function openSecondHandle(database: TestDatabase): DatabaseHandle {
  if (database.handle.dialect !== 'postgres' || !database.schema) {
    throw new Error('openSecondHandle needs a PostgreSQL test database');
  }
  return createDatabase(process.env['TEST_DATABASE_URL'] as string, { schema: database.schema, poolSize: 4 });
}

/** Two handles on one database, as two service instances have: a temporary SQLite file, or one PostgreSQL schema through two pools. */
export async function openSharedHandles(
  kind: DatabaseKind,
): Promise<{ handles: DatabaseHandle[]; close(): Promise<void> }> {
  if (kind === 'postgres') {
    const database = await openTestDatabase('postgres');
    const second = openSecondHandle(database);
    return {
      handles: [database.handle, second],
      close: async () => {
        await second.close();
        await database.close();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'subweave-shared-'));
  const handles = [
    createDatabase(`sqlite:${join(dir, 'shared.db')}`),
    createDatabase(`sqlite:${join(dir, 'shared.db')}`),
  ];
  for (const handle of handles) await migrateToLatest(handle);
  return {
    handles,
    close: async () => {
      for (const handle of handles) await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * Test apps send many requests from 127.0.0.1, so rate limits and automatic bans are off unless a suite turns them
 * on; the abuse-control suites set their own values.
 */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    PUBLIC_BASE_URL: TEST_BASE_URL,
    FETCH_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PUBLIC_PER_MIN: '0',
    RATE_LIMIT_API_PER_MIN: '0',
    RATE_LIMIT_ANON_PER_MIN: '0',
    AUTO_BAN_VIOLATIONS: '0',
    ...overrides,
  });
}

export const ADMIN_PREFIX = '/api/v1/admin';

/** ADMIN_SECRET of the suites that sign admin calls without caring about the key. */
export const TEST_ADMIN_SECRET = 'test-admin-secret-of-at-least-32-characters';

export interface AdminCallOptions {
  /** Sign with this key instead of the app's ADMIN_SECRET. */
  secret?: string;
  /** X-Timestamp to sign and send (default now). */
  timestamp?: string;
  /** Extra or overriding headers, sent after signing (e.g. a tampered X-Signature). */
  headers?: Record<string, string>;
  /** Socket address the request appears to come from (default 127.0.0.1). */
  remoteAddress?: string;
  /** Send this body instead of the signed one (tampering tests). */
  sentBody?: string;
}

let lastTimestamp = 0;

/**
 * Now, but never the same millisecond twice: two identical requests signed in one millisecond carry one signature,
 * and the second would be refused as a replay.
 */
function nextTimestamp(): string {
  lastTimestamp = Math.max(Date.now(), lastTimestamp + 1);
  return String(lastTimestamp);
}

/** Sends an admin request signed exactly as docs/admin-api.md says; `body` is JSON-encoded unless a string. */
export function signedInject(
  app: FastifyInstance,
  secret: string,
  method: string,
  path: string,
  body?: unknown,
  options: AdminCallOptions = {},
): Promise<LightMyRequestResponse> {
  const url = `${ADMIN_PREFIX}${path}`;
  const raw = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const timestamp = options.timestamp ?? nextTimestamp();
  const signature = signRequest(options.secret ?? secret, { timestamp, method, pathWithQuery: url, body: raw });
  const payload = options.sentBody ?? raw;
  return app.inject({
    method: method as InjectOptions['method'],
    url,
    headers: {
      'x-timestamp': timestamp,
      'x-signature': signature,
      ...(payload !== '' ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(payload !== '' ? { payload } : {}),
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
}

/** Redis for the suites that use it: TEST_REDIS_URL, or undefined when those suites are skipped. */
export const redisUrl = process.env['TEST_REDIS_URL'];

export type CounterBackend = 'memory' | 'redis';

/** Memory always; Redis too when TEST_REDIS_URL is set. */
export function counterBackends(): CounterBackend[] {
  return redisUrl ? ['memory', 'redis'] : ['memory'];
}

/** A private Redis key prefix, so test files running in parallel never share counters. */
export function uniqueRedisPrefix(): string {
  return `test-${randomBytes(6).toString('hex')}`;
}

/** A Redis client that has finished connecting (commands fail fast while it has not; see src/redis.ts). */
export async function connectedRedis(url: string): Promise<Redis> {
  const redis = createRedis(url, { warn: () => undefined, info: () => undefined });
  if (redis.status !== 'ready') await new Promise((ready) => redis.once('ready', ready));
  return redis;
}

/** Builds a context and an app on it, as main.ts does; closing the app closes the context too. */
export async function startTestApp(
  config: Config,
  database: DatabaseHandle,
  overrides: ContextOverrides = {},
  appOptions: AppOptions = {},
): Promise<{ app: FastifyInstance; context: AppContext }> {
  const context = await createContext(config, database, overrides);
  const app = await buildApp(context, appOptions);
  app.addHook('onClose', () => context.close());
  return { app, context };
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Socket address the request comes from (default 127.0.0.1). */
  ip?: string;
}

/** Requests to one app: `call` as any client, `admin` signed with `adminSecret`. */
export interface TestClient {
  app: FastifyInstance;
  /** app.inject with a JSON body, an optional API token and client address. */
  call(method: InjectOptions['method'], url: string, options?: CallOptions): Promise<LightMyRequestResponse>;
  /** A request signed with the app's ADMIN_SECRET; `path` is relative to /api/v1/admin. */
  admin(method: string, path: string, body?: unknown, options?: AdminCallOptions): Promise<LightMyRequestResponse>;
}

export function clientFor(app: FastifyInstance, adminSecret: string): TestClient {
  return {
    app,
    call: (method, url, options = {}) =>
      app.inject({
        method,
        url,
        ...(options.ip ? { remoteAddress: options.ip } : {}),
        headers: { ...(options.token ? { 'api-token': options.token } : {}), ...options.headers },
        ...(options.body !== undefined ? { payload: options.body as InjectOptions['payload'] } : {}),
      }),
    admin: (method, path, body, options) => signedInject(app, adminSecret, method, path, body, options),
  };
}

export interface TestApp extends TestClient {
  database: DatabaseHandle;
  config: Config;
  /** Everything the app was built from (its services, change log, caches). */
  context: AppContext;
  /** The app's provider service, for operations that have no HTTP endpoint here (delete, disable). */
  providers: ProvidersService;
  /** Creates a fresh user and returns its id and API token. */
  newUser(): Promise<TestUser>;
  /** Creates a provider owned by a fresh user; returns its hash, name and API token. */
  newProvider(options?: { name?: string; url?: string }): Promise<TestProvider>;
}

export interface TestAppOptions {
  /** Where rate-limit counters, the replay guard and change notices live: memory (default) or TEST_REDIS_URL. */
  backend?: CounterBackend;
  /** Replaces parts of the context (see ContextOverrides), e.g. a clock or a poll interval. */
  overrides?: ContextOverrides;
  /** Options of buildApp itself, e.g. where the built dashboard lives. */
  app?: AppOptions;
}

/**
 * Builds one app per suite (beforeAll) on its own database, and tears both down (afterAll); read the fields inside
 * tests. `env` adds to testConfig; Redis, when used, gets a key prefix of its own.
 */
export function useTestApp(
  kind: DatabaseKind,
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): TestApp {
  const context = {} as TestApp;
  let testDatabase: TestDatabase;
  let redis: Redis | null = null;
  beforeAll(async () => {
    testDatabase = await openTestDatabase(kind);
    redis = options.backend === 'redis' ? await connectedRedis(redisUrl as string) : null;
    const config = testConfig({ REDIS_PREFIX: uniqueRedisPrefix(), ...env });
    const overrides = { ...(redis ? { redis } : {}), ...options.overrides };
    const { app, context: built } = await startTestApp(config, testDatabase.handle, overrides, options.app);
    const db = testDatabase.handle.db;
    Object.assign(context, clientFor(app, config.adminSecret ?? ''), {
      config,
      database: testDatabase.handle,
      context: built,
      providers: built.providers,
      newUser: () => createTestUser(db),
      newProvider: (provider: { name?: string; url?: string } = {}) =>
        createTestProvider(db, built.providers, provider),
    });
  });
  afterAll(async () => {
    await context.app?.close();
    await redis?.quit();
    await testDatabase?.close();
  });
  return context;
}
