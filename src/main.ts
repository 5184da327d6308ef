// Starts the service: open the database, migrate, serve HTTP, and shut everything down cleanly on a signal.
import type { FastifyServerOptions } from 'fastify';
import { buildApp } from './app.js';
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
  const app = await buildApp({ config, database, logger: loggerOptions(config) });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
      await database.close();
    } finally {
      process.exit(0);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    app.log.error({ err: error }, 'could not listen');
    await database.close();
    throw error;
  }
}
