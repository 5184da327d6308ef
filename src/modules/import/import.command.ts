// `subweave import-v2hub`: copies a v2hub database into subweave's, or shows what it would copy (docs/migrating-from-v2hub.md).
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Config } from '../../config.js';
import { createDatabase, type DatabaseHandle } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { ChangeLog, type Change } from '../../changes/change-log.js';
import { mapAccounts } from './map-accounts.js';
import { mapCache } from './map-cache.js';
import { mapSubscriptions } from './map-subscriptions.js';
import { refusedHosts } from './public-hosts.js';
import { ImportError, ImportReport } from './report.js';
import {
  EMPTY_TARGET,
  hasSubweaveTables,
  readTargetKeys,
  writeImportRows,
  type ImportRows,
  type TargetKeys,
} from './target.store.js';
import { readV2hub, type V2hubData } from './v2hub.store.js';
import { actingAs } from '../../events/actor-context.js';
import { IMPORT_ACTING, importEvents } from './import-events.js';

export interface ImportIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

interface ImportOptions {
  from: string;
  dryRun: boolean;
  merge: boolean;
  domain: string | null;
}

/** Runs the verb; every failure the operator can fix is one line on stderr and exit status 1 (2 for bad usage). */
export async function runImportV2hub(argv: string[], config: Config, io: ImportIo): Promise<number> {
  let options: ImportOptions;
  try {
    options = parseOptions(argv);
  } catch (error) {
    io.stderr.write(`subweave import-v2hub: ${(error as Error).message}\n`);
    return 2;
  }
  try {
    const data = await readV2hub(options.from);
    const report = await importData(data, config, options);
    io.stdout.write(report.format({ dryRun: options.dryRun }));
    return 0;
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    io.stderr.write(`subweave import-v2hub: ${error.message}\n`);
    return 1;
  }
}

function parseOptions(argv: string[]): ImportOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      from: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      merge: { type: 'boolean', default: false },
      domain: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length > 0) throw new Error(`unexpected argument: ${positionals.join(' ')}`);
  // v2hub's own DATABASE_URL names its driver (postgresql+asyncpg://); the server is the same.
  const from = (values.from?.trim() ?? '').replace(/^(postgres(?:ql)?)\+[a-z0-9]+:\/\//i, '$1://');
  if (!/^postgres(ql)?:\/\//i.test(from) || !URL.canParse(from)) {
    throw new Error('--from must be the postgres://user:password@host:port/database URL of the v2hub database');
  }
  const domain = values.domain?.trim() || null;
  return { from, dryRun: values['dry-run'], merge: values.merge, domain };
}

async function importData(data: V2hubData, config: Config, options: ImportOptions): Promise<ImportReport> {
  // A dry run writes nothing at all: no migration, and no SQLite file created where there is none.
  if (options.dryRun && isMissingSqliteFile(config.databaseUrl)) {
    return (await plan(data, EMPTY_TARGET, config, options)).report;
  }
  const database = createDatabase(config.databaseUrl);
  try {
    if (!options.dryRun) await migrateToLatest(database);
    const target =
      options.dryRun && !(await hasSubweaveTables(database.db, database.dialect))
        ? EMPTY_TARGET
        : await readTargetKeys(database.db);
    refuseNonEmpty(target, options);
    const { rows, report } = await plan(data, target, config, options);
    if (!options.dryRun && report.totalAdded > 0) await write(database, rows);
    return report;
  } finally {
    await database.close();
  }
}

function isMissingSqliteFile(url: string): boolean {
  const path = url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : null;
  return path !== null && path !== ':memory:' && !existsSync(path);
}

function refuseNonEmpty(target: TargetKeys, options: ImportOptions): void {
  const counts = [
    [target.users.length, 'users'],
    [target.providers.length, 'providers'],
    [target.subscriptions.length, 'subscriptions'],
  ] as const;
  const held = counts.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`);
  if (held.length > 0 && !options.merge) {
    throw new ImportError(`the target database is not empty (${held.join(', ')}); pass --merge to import into it`);
  }
}

async function plan(
  data: V2hubData,
  target: TargetKeys,
  config: Config,
  options: ImportOptions,
): Promise<{ rows: ImportRows; report: ImportReport }> {
  const report = new ImportReport();
  const now = new Date().toISOString();
  const accounts = mapAccounts(data, target, report, now);
  const subs = mapSubscriptions(data, target, accounts.owners, report, {
    baseUrl: config.publicBaseUrl,
    placeholder: options.domain,
    now,
    maxSources: config.maxSourcesPerSubscription,
    maxNesting: config.maxNestingDepth,
    refusedHosts: await refusedHosts(data, config.fetchAllowPrivate),
  });
  const cache = await mapCache(data, subs.sources, subs.presentUrls, target, report, {
    maxLines: config.maxResolvedConfigs,
    now,
  });
  return {
    report,
    rows: {
      users: accounts.users,
      providers: accounts.providers,
      connections: accounts.connections,
      subscriptions: subs.subscriptions,
      sources: subs.sources,
      ...cache,
    },
  };
}

/** Changes told to running instances per change-log write: one insert stays below every bound-parameter limit. */
const CHANGES_PER_WRITE = 500;

/**
 * The rows in one transaction; then running instances are told about every new subscription and content (a merge
 * can fill a reference that pointed nowhere), in bounded batches after the commit.
 */
async function write(database: DatabaseHandle, rows: ImportRows): Promise<void> {
  const changes = new ChangeLog(database);
  await actingAs(IMPORT_ACTING, () =>
    changes.write(async (trx, _record, emit) => {
      await writeImportRows(trx, rows, new Date().toISOString());
      importEvents(rows).forEach(emit);
    }),
  );
  const notices: Change[] = [
    ...rows.subscriptions.map((row): Change => ({ kind: 'subscription', token: row.token })),
    ...rows.cacheContent.map((entry): Change => ({ kind: 'url', url: entry.url })),
  ];
  for (let i = 0; i < notices.length; i += CHANGES_PER_WRITE) {
    const batch = notices.slice(i, i + CHANGES_PER_WRITE);
    await changes.write(async (_trx, record) => batch.forEach(record));
  }
}
