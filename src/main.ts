// Starts the service: open the database, migrate, serve HTTP, and shut everything down cleanly on a signal.
import type { FastifyServerOptions } from 'fastify';
import { buildApp, externalSourcesOptions, upstreamOptions } from './app.js';
import { ExternalSources } from './modules/fetch/external-sources.js';
import { Refresher } from './modules/fetch/refresher.js';
import { createUpstreamClient } from './modules/fetch/upstream.js';
import { ChangeFeed } from './modules/resolve/change-feed.js';
import type { Config } from './config.js';
import { createDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: ['req.headers["api-token"]', 'req.headers["x-signature"]'],
    ...(process.stdout.isTTY ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:standard' } } } : {}),
  };
}

export async function serve(config: Config): Promise<void> {
  const database = createDatabase(config.databaseUrl);
  await migrateToLatest(database);
  const changes = new ChangeFeed();
  const upstream = createUpstreamClient(upstreamOptions(config));
  const external = new ExternalSources(database, upstream, changes, externalSourcesOptions(config));
  const app = await buildApp({ config, database, changes, external, logger: loggerOptions(config) });
  const refresher = new Refresher(external, {
    intervalSeconds: config.refreshIntervalSeconds,
    claimSeconds: Math.ceil((config.fetchTimeoutMs * 2) / 1000) + 60,
    log: app.log.child({ role: 'refresher' }),
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
      await refresher.stop();
      await upstream.close();
      await database.close();
    } finally {
      process.exit(0);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  try {
    await app.listen({ host: config.host, port: config.port });
    refresher.start();
  } catch (error) {
    app.log.error({ err: error }, 'could not listen');
    await database.close();
    throw error;
  }
}
