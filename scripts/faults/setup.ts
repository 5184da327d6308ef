// Everything the fault run stands on: a private PostgreSQL and Redis, the upstream, two service instances, the load's
// users, and the probe and staleness subscriptions. Each part registers how to take it down again.
import { randomBytes } from 'node:crypto';
import { createDatabase } from '../../src/db/database.js';
import { createUser } from '../../src/modules/users/users.service.js';
import {
  freePort,
  privatePostgres,
  privateRedis,
  type PrivatePostgres,
  type PrivateRedis,
} from '../support/private-services.js';
import { call, json } from './client.js';
import type { Probe } from './health.js';
import { ServiceInstance, type Exit } from './instances.js';
import type { StalenessTarget } from './staleness.js';
import { startUpstream, type FaultUpstream } from './upstream.js';

export interface SetupOptions {
  logDir: string;
  users: number;
  fetchTimeoutMs: number;
  shutdownTimeoutMs: number;
  /** Registers a step of the teardown; they run in reverse order. */
  onTeardown: (step: () => Promise<unknown>) => void;
  onUnexpectedExit: (exit: Exit, instance: ServiceInstance) => void;
}

export interface Setup {
  postgres: PrivatePostgres;
  redis: PrivateRedis;
  upstream: FaultUpstream;
  a: ServiceInstance;
  b: ServiceInstance;
  /** One API token per load worker. */
  userTokens: string[];
  probe: Probe;
  stalenessTarget: StalenessTarget;
}

const PROBE_FEED = 900_000;

export async function setUp(options: SetupOptions): Promise<Setup> {
  const postgres = await privatePostgres();
  options.onTeardown(() => postgres.destroy());
  const redis = await privateRedis();
  options.onTeardown(() => redis.stop());
  const upstream = await startUpstream();
  options.onTeardown(() => upstream.close());

  const env = {
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: `faults-${randomBytes(4).toString('hex')}`,
    ADMIN_SECRET: randomBytes(16).toString('hex'),
    PUBLIC_BASE_URL: 'http://subweave.test',
    FETCH_ALLOW_PRIVATE: 'true',
    FETCH_TIMEOUT_MS: String(options.fetchTimeoutMs),
    SHUTDOWN_TIMEOUT_MS: String(options.shutdownTimeoutMs),
    REFRESH_INTERVAL_SECONDS: '10',
    MAX_SUBSCRIPTIONS_PER_USER: '20',
    RATE_LIMIT_PUBLIC_PER_MIN: '0',
    RATE_LIMIT_API_PER_MIN: '0',
    RATE_LIMIT_ANON_PER_MIN: '0',
    AUTO_BAN_VIOLATIONS: '0',
    LOG_LEVEL: 'warn',
  };
  const instances: ServiceInstance[] = [];
  for (const name of ['A', 'B']) {
    const instance: ServiceInstance = new ServiceInstance({
      name,
      port: await freePort(),
      env,
      logDir: options.logDir,
      onUnexpectedExit: (exit) => options.onUnexpectedExit(exit, instance),
    });
    options.onTeardown(() => instance.close());
    instances.push(instance);
  }
  const [a, b] = instances as [ServiceInstance, ServiceInstance];
  await a.start(); // migrates the empty database
  await b.start();

  // Users straight in the database, as `subweave users create` makes them.
  const database = createDatabase(postgres.url, { poolSize: 1 });
  const userTokens: string[] = [];
  for (let i = 0; i <= options.users; i++) userTokens.push((await createUser(database.db, 1_000 + i)).api_token);
  await database.close();
  const probeToken = userTokens.pop() as string;
  const create = async (name: string, sources: string[]) => {
    const answer = await call(a.origin, '/api/v1/subs', { method: 'POST', token: probeToken, json: { name, sources } });
    if (answer.status !== 201) throw new Error(`could not create the ${name} subscription: ${answer.code}`);
    return json<{ token: string; sources: Array<{ id: string }> }>(answer);
  };
  const probe: Probe = { apiToken: probeToken, token: (await create('probe', [upstream.url(PROBE_FEED)])).token };
  const staleData = 'trojan://pw@stale.example.com:443';
  const stale = await create('staleness', [staleData]);
  const stalenessTarget: StalenessTarget = {
    apiToken: probeToken,
    token: stale.token,
    data: staleData,
    configId: (stale.sources[0] as { id: string }).id,
  };
  return { postgres, redis, upstream, a, b, userTokens, probe, stalenessTarget };
}
