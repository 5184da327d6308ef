// Keeps every instance's IpView current: Redis pub/sub when configured, otherwise a twice-a-second poll of a cheap fingerprint.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/executor.js';
import type { Redis } from '../../redis.js';
import { abuseVersion } from './abuse.store.js';
import type { IpView } from './ip-view.js';

/** Without Redis the poll is the only way to hear of other instances' changes; every 500 ms keeps them under a second. */
export const POLL_MS_WITHOUT_REDIS = 500;
/** With Redis the poll only repairs a missed message (e.g. during a reconnect). */
export const POLL_MS_WITH_REDIS = 30_000;

export interface ViewSync {
  /** Tells the other instances that bans or the whitelist changed. */
  announce(): void;
  stop(): Promise<void>;
}

export interface ViewSyncOptions {
  view: IpView;
  db: Executor;
  log: FastifyBaseLogger;
  redis: Redis | null;
  channel: string;
}

export async function startViewSync({ view, db, log, redis, channel }: ViewSyncOptions): Promise<ViewSync> {
  const reload = (why: string) =>
    view.reload().catch((error: unknown) => log.warn({ err: error, why }, 'could not reload bans and whitelist'));

  let polling = false;
  const timer = setInterval(() => {
    if (polling) return;
    polling = true;
    abuseVersion(db)
      .then((version) => (version === view.version ? undefined : reload('poll')))
      .catch((error: unknown) => log.warn({ err: error }, 'could not poll bans and whitelist'))
      .finally(() => {
        polling = false;
      });
  }, redis ? POLL_MS_WITH_REDIS : POLL_MS_WITHOUT_REDIS);
  timer.unref();

  if (!redis) {
    return { announce: () => undefined, stop: async () => clearInterval(timer) };
  }

  const instance = randomUUID();
  const subscriber = redis.duplicate();
  subscriber.on('error', (error: unknown) => log.warn({ err: error }, 'ban/whitelist subscriber error'));
  subscriber.on('message', (_channel: string, from: string) => {
    if (from !== instance) void reload('redis');
  });
  await subscriber.subscribe(channel);
  return {
    announce: () => {
      redis.publish(channel, instance).catch((error: unknown) => log.warn({ err: error }, 'could not announce a ban change'));
    },
    stop: async () => {
      clearInterval(timer);
      await subscriber.quit().catch(() => undefined);
    },
  };
}
