// Wires bans, the whitelist and rate limits into an app: loads the view, starts its sync, installs the hooks.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { DatabaseHandle } from '../../db/database.js';
import type { Redis } from '../../redis.js';
import { installAbuseHooks } from './abuse.hooks.js';
import { AbuseControls } from './abuse.service.js';
import { MemoryCounters, RedisCounters } from './counters.js';
import { RateLimiter } from './rate-limiter.js';

export interface AbuseOptions {
  config: Config;
  database: DatabaseHandle;
  redis: Redis | null;
  /** Prefix of Redis keys and of the change channel, e.g. `subweave:`. */
  redisPrefix: string;
}

/** Call on the root instance before registering any route plugin (see installAbuseHooks). */
export async function installAbuseControls(app: FastifyInstance, options: AbuseOptions): Promise<AbuseControls> {
  const { config, database, redis, redisPrefix } = options;
  const controls = await AbuseControls.start({ database, redis, redisPrefix, log: app.log });
  app.addHook('onClose', () => controls.close());
  const counters = redis ? new RedisCounters(redis, redisPrefix) : new MemoryCounters();
  installAbuseHooks(app, {
    controls,
    limiter: new RateLimiter(counters, config),
    defaultBanSeconds: config.defaultBanSeconds,
  });
  return controls;
}
