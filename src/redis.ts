// Opens the optional Redis connection (REDIS_URL): shared counters and change notices, never required to serve.
import { Redis } from 'ioredis';

export type { Redis };

export type RedisHealth = 'ok' | 'degraded' | 'off';

interface OutageLog {
  warn(details: object, message: string): void;
  info(message: string): void;
}

/**
 * Commands fail at once while Redis is away (no offline queue), so callers fall back to local state instead of
 * waiting; the client reconnects by itself. An outage is logged once, and its end once.
 */
export function createRedis(url: string, log: OutageLog): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    log.warn({ err: error.message }, "Redis unreachable: running on this instance's counters and the change log");
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log.info('Redis reachable again');
  });
  return redis;
}

export function redisHealth(redis: Redis | null): RedisHealth {
  if (!redis) return 'off';
  return redis.status === 'ready' ? 'ok' : 'degraded';
}
