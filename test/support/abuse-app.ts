// Test apps for bans and rate limits: requests from a chosen client IP, signed admin calls, and optional Redis with a private key prefix.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { DatabaseHandle } from '../../src/db/database.js';
import { createUser } from '../../src/modules/users/users.service.js';
import { createRedis, type Redis } from '../../src/redis.js';
import {
  openTestDatabase,
  signedInject,
  startTestApp,
  testConfig,
  uniqueProviderName,
  type DatabaseKind,
  type TestDatabase,
} from './harness.js';

export const ADMIN_SECRET = 's';
export const redisUrl = process.env['TEST_REDIS_URL'];

export type CounterBackend = 'memory' | 'redis';

/** Memory always; Redis too when TEST_REDIS_URL is set. */
export function counterBackends(): CounterBackend[] {
  return redisUrl ? ['memory', 'redis'] : ['memory'];
}

/** A private Redis key prefix, so test files running in parallel never share counters. */
export function uniqueRedisPrefix(): string {
  return `test-abuse-${randomBytes(6).toString('hex')}`;
}

export interface ClientOptions {
  ip?: string;
  token?: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface AbuseClient {
  app: FastifyInstance;
  /** A request that appears to come from `options.ip` (default 127.0.0.1). */
  send(method: InjectOptions['method'], url: string, options?: ClientOptions): Promise<LightMyRequestResponse>;
  /** A signed admin request from 127.0.0.1; `path` is relative to /api/v1/admin. */
  admin(method: string, path: string, body?: unknown): Promise<LightMyRequestResponse>;
}

export function clientFor(app: FastifyInstance): AbuseClient {
  return {
    app,
    send: (method, url, options = {}) =>
      app.inject({
        method,
        url,
        remoteAddress: options.ip ?? '127.0.0.1',
        headers: { ...(options.token ? { 'api-token': options.token } : {}), ...options.headers },
        ...(options.body !== undefined ? { payload: options.body as InjectOptions['payload'] } : {}),
      }),
    admin: (method, path, body) => signedInject(app, ADMIN_SECRET, method, path, body),
  };
}

export interface AbuseTestApp extends AbuseClient {
  database: DatabaseHandle;
  newUser(): Promise<{ userId: number; token: string }>;
  /** A provider owned by a fresh user; answers its API token. */
  newProvider(): Promise<{ token: string }>;
}

let nextUserId = 5_000_000 + Math.floor(Math.random() * 1_000_000) * 100;

/** One app per suite with ADMIN_SECRET set, counters in memory or in Redis under a private prefix. */
export function useAbuseApp(
  kind: DatabaseKind,
  backend: CounterBackend,
  env: Record<string, string> = {},
): AbuseTestApp {
  const context = {} as AbuseTestApp;
  let database: TestDatabase;
  let redis: Redis | null = null;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    redis = backend === 'redis' ? await connectedRedis(redisUrl as string) : null;
    const config = testConfig({ ADMIN_SECRET, REDIS_PREFIX: uniqueRedisPrefix(), ...env });
    const { app, context: built } = await startTestApp(config, database.handle, { redis });
    const newUser = async () => {
      const userId = nextUserId++;
      const user = await createUser(database.handle.db, userId);
      return { userId, token: user.api_token };
    };
    const providers = built.providers;
    const newProvider = async () => {
      const name = uniqueProviderName();
      const owner = await newUser();
      const created = await providers.create({
        owner_id: owner.userId,
        provider_name: name,
        provider_url: `https://${name}.example.com`,
      });
      return { token: created.api_token };
    };
    Object.assign(context, clientFor(app), { database: database.handle, newUser, newProvider });
  });
  afterAll(async () => {
    await context.app?.close();
    await redis?.quit();
    await database?.close();
  });
  return context;
}

/** A Redis client that has finished connecting (commands fail fast while it has not; see src/redis.ts). */
export async function connectedRedis(url: string): Promise<Redis> {
  const redis = createRedis(url, { warn: () => undefined, info: () => undefined });
  if (redis.status !== 'ready') await new Promise((ready) => redis.once('ready', ready));
  return redis;
}

let nextAddress = randomBytes(2).readUInt16BE();

/** A fresh IPv4 address (benchmarking range 198.18.0.0/16) per call, so tests never share a counter or a ban. */
export function freshIp(): string {
  nextAddress = (nextAddress + 1) % 65_536;
  return `198.18.${nextAddress >> 8}.${nextAddress & 0xff}`;
}

export async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it holds or `withinMs` passes; answers the time it took, or null. */
export async function within(withinMs: number, check: () => Promise<boolean>): Promise<number | null> {
  const started = Date.now();
  while (Date.now() - started <= withinMs) {
    if (await check()) return Date.now() - started;
    await sleep(25);
  }
  return null;
}
