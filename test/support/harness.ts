// Test harness: runs suites on SQLite always and on PostgreSQL when TEST_DATABASE_URL is set, each app in its own database.
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
import { createUser } from '../../src/modules/users/users.service.js';
import { createContext, type AppContext, type ContextOverrides } from '../../src/context.js';
import type { ProvidersService } from '../../src/modules/providers/providers.service.js';
import { signRequest } from '../../src/modules/admin/signature.js';

export type DatabaseKind = 'sqlite' | 'postgres';

export function testDatabaseKinds(): DatabaseKind[] {
  return process.env['TEST_DATABASE_URL'] ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** Declares the suite once per database kind; test names carry the kind. */
export function describeEachDatabase(title: string, body: (kind: DatabaseKind) => void): void {
  for (const kind of testDatabaseKinds()) describe(`${title} [${kind}]`, () => body(kind));
}

export const TEST_BASE_URL = 'http://sub.test';

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

let nextUserId = 1_000 + Math.floor(Math.random() * 1_000_000) * 100;

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  /** Creates a fresh user and returns its id and API token. */
  newUser(): Promise<{ userId: number; token: string }>;
  /** Creates a provider owned by a fresh user; returns its hash, name and API token. */
  newProvider(options?: { name?: string; url?: string }): Promise<TestProvider>;
  /** Everything the app was built from (its services, change log, caches). */
  context: AppContext;
  /** The app's provider service, for operations that have no HTTP endpoint here (delete, disable). */
  providers: ProvidersService;
  /** app.inject with JSON body and an optional API token. */
  call(method: InjectOptions['method'], url: string, options?: CallOptions): Promise<LightMyRequestResponse>;
  /** A request signed with the suite's ADMIN_SECRET; `path` is relative to /api/v1/admin. */
  admin(method: string, path: string, body?: unknown, options?: AdminCallOptions): Promise<LightMyRequestResponse>;
}

export const ADMIN_PREFIX = '/api/v1/admin';

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

/** Sends an admin request signed exactly as DESIGN.md section 7 says; `body` is JSON-encoded unless a string. */
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

export interface TestProvider {
  hash: string;
  name: string;
  token: string;
  ownerId: number;
}

let providerCounter = 0;

/** A valid, unique provider name (4-16 characters). */
export function uniqueProviderName(): string {
  return `p${randomBytes(4).toString('hex')}${(providerCounter++).toString(36)}`.slice(0, 16);
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
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

/** Builds one app per suite (beforeAll) and tears it down (afterAll); read the fields inside tests. */
export function useTestApp(kind: DatabaseKind, env: Record<string, string> = {}): TestApp {
  const context = {} as TestApp;
  let testDatabase: TestDatabase;
  beforeAll(async () => {
    testDatabase = await openTestDatabase(kind);
    const config = testConfig(env);
    const { app, context: built } = await startTestApp(config, testDatabase.handle);
    const providers = built.providers;
    const newUser = async () => {
      const userId = nextUserId++;
      const user = await createUser(testDatabase.handle.db, userId);
      return { userId, token: user.api_token };
    };
    Object.assign(context, {
      app,
      config,
      database: testDatabase.handle,
      context: built,
      providers,
      newUser,
      newProvider: async (options: { name?: string; url?: string } = {}) => {
        const owner = await newUser();
        const name = options.name ?? uniqueProviderName();
        const created = await providers.create({
          owner_id: owner.userId,
          provider_name: name,
          provider_url: options.url ?? `https://${name}.example.com`,
        });
        return { hash: created.provider_hash, name, token: created.api_token, ownerId: owner.userId };
      },
      call: (method: InjectOptions['method'], url: string, options: CallOptions = {}) =>
        app.inject({
          method,
          url,
          headers: { ...(options.token ? { 'api-token': options.token } : {}), ...options.headers },
          ...(options.body !== undefined ? { payload: options.body as InjectOptions['payload'] } : {}),
        }),
      admin: (method: string, path: string, body?: unknown, options?: AdminCallOptions) =>
        signedInject(app, config.adminSecret ?? '', method, path, body, options),
    });
  });
  afterAll(async () => {
    await context.app?.close();
    await testDatabase?.close();
  });
  return context;
}
