// Benchmarks that measure the service inside their own process start it here: a fresh SQLite file, migrated, listening on loopback.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { createContext, type AppContext } from '../src/context.js';
import { createDatabase, type DatabaseHandle } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { BENCH_ENV } from './service-process.js';

export interface InProcessService {
  app: FastifyInstance;
  base: string;
  config: Config;
  context: AppContext;
  database: DatabaseHandle;
  stop(): Promise<void>;
}

/** `vars` are environment variables on top of a loopback, quiet, private-upstream-friendly base. */
export async function startInProcess(vars: Record<string, string>): Promise<InProcessService> {
  const dir = mkdtempSync(join(tmpdir(), 'subweave-bench-'));
  const config = loadConfig({
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    ...BENCH_ENV,
    LOG_LEVEL: 'silent',
    ...vars,
  });
  const database = createDatabase(config.databaseUrl);
  await migrateToLatest(database);
  const context = await createContext(config, database);
  const app = await buildApp(context);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    base,
    config,
    context,
    database,
    stop: async () => {
      await app.close();
      await context.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
