#!/usr/bin/env node
// The `subweave` command: serve, migrate, back up, import from v2hub, and bootstrap users and providers without the admin API.
// First, before any other module runs: see the modules.
import './shared/tick-shape.js';
import './shared/header-shape.js';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { BackupError, backupSqlite } from './db/backup.js';
import { AppError, errors } from './http/errors.js';
import { createUser, UsersService } from './modules/users/users.service.js';
import { ProvidersService } from './modules/providers/providers.service.js';
import { ChangeLog } from './changes/change-log.js';
import { runAdmin } from './modules/admin/admin.cli.js';
import { runImportV2hub } from './modules/import/import.command.js';
import { actingAs, adminActing } from './events/actor-context.js';

/** Where a command writes: the process's streams, or a test's buffers. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

const HELP = `Usage: subweave <command>

Commands:
  serve [--role all|api|worker]
                            Start the service (migrates first). What \`npm start\` runs. all (default): the HTTP
                            API, the refresher of external sources and webhook delivery; api: only the HTTP API;
                            worker: only the refresher and webhook delivery (no HTTP). Run any number of each
                            against one PostgreSQL database.
  migrate                   Apply database migrations and exit.
  backup <file>             Write a consistent copy of the SQLite database to a new file, while serving.
  users create <user_id>    Create a user; prints its API token once.
  users token <user_id>     Issue a new API token for a user (the old one stops working); prints it once.
  providers create <owner_user_id> <name> [url]
                            Create a provider owned by an existing user; prints its API token once.
                            name: 4-16 lower-case letters and digits, single inner hyphens.
  import-v2hub --from postgres://... [--dry-run] [--merge] [--domain <v2hub DOMAIN>]
                            Copy a v2hub database into this one (DATABASE_URL): users, providers, connections,
                            subscriptions (same tokens), sources and cached upstream content. --dry-run prints
                            what would change and writes nothing; a non-empty target needs --merge (re-runs add
                            nothing twice); --domain: comments equal to v2hub's DOMAIN setting import as none.
                            See docs/migrating-from-v2hub.md.
  admin <verb> ...          Sign and send an admin API request to a running server (ADMIN_SECRET, --url);
                            \`subweave admin --help\` lists every verb.
  help                      Show this help.

Configuration comes from environment variables (see README), e.g. DATABASE_URL.

Examples:
  subweave users create 42
  TOKEN=$(subweave users token 42)
  PROVIDER_TOKEN=$(subweave providers create 42 my-vpn-bot https://bot.example.com)
  DATABASE_URL=postgres://localhost/subweave subweave migrate
  subweave backup backups/subweave-$(date +%F).db
  ADMIN_SECRET=... subweave admin users get 42 --url http://127.0.0.1:8080
  subweave import-v2hub --from postgres://v2hub@old-host/v2hub --domain v2hub.example.com --dry-run
`;

async function withDatabase<T>(
  config: Config,
  work: (db: ReturnType<typeof createDatabase>) => Promise<T>,
): Promise<T> {
  const database = createDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database);
    return await work(database);
  } finally {
    await database.close();
  }
}

/** What a serving process runs: the HTTP API, the background refresher of external sources, or both. */
export const ROLES = ['all', 'api', 'worker'] as const;
export type Role = (typeof ROLES)[number];

/** `--role <name>` or `--role=<name>` of serve; `all` when absent. */
function roleOption(argv: string[]): Role {
  const { values } = parseArgs({
    args: argv,
    options: { role: { type: 'string' } },
    allowPositionals: true,
    strict: false,
  });
  const role = values.role ?? 'all';
  if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) {
    throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
  }
  return role as Role;
}

function parseUserId(raw: string | undefined): number {
  if (!raw || !/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw new UsageError('user_id must be a positive integer');
  }
  return Number(raw);
}

class UsageError extends Error {}

/** Validation problems as " (field: problem; ...)", so a bad argument says what is wrong with it. */
function issuesOf(error: AppError): string {
  const issues = (error.details?.['issues'] ?? []) as Array<{ path: string; message: string }>;
  return issues.length ? ` (${issues.map((i) => `${i.path.replace(/^body\./, '')}: ${i.message}`).join('; ')})` : '';
}

/**
 * Runs one `subweave` command and resolves to its exit status; output goes to `io`, configuration comes from `env`.
 * `serve` resolves once the server listens; from then on the process lives until a signal ends it (src/main.ts).
 */
export async function run(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  try {
    return await command(argv, env, io);
  } catch (error) {
    if (error instanceof ConfigError) io.stderr.write(`${error.message}\n`);
    else if (error instanceof UsageError) io.stderr.write(`subweave: ${error.message}\n\n${HELP}`);
    else if (error instanceof AppError) io.stderr.write(`subweave: ${error.message}${issuesOf(error)}\n`);
    else io.stderr.write(`subweave: ${error instanceof Error ? error.stack : String(error)}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

/** The actor of the commands that write to the database directly. */
const CLI = adminActing('cli');

async function command(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: false });
  const [command, sub, arg, ...rest] = positionals;
  if (command === 'admin') {
    // A client of a running server: it needs no database and none of the server's configuration.
    return runAdmin(argv.slice(argv.indexOf('admin') + 1), env, io);
  }
  if (!command || command === 'help' || argv.includes('--help') || argv.includes('-h')) {
    io.stdout.write(HELP);
    return 0;
  }
  const config = loadConfig(env);
  switch (`${command}${sub && (command === 'users' || command === 'providers') ? ` ${sub}` : ''}`) {
    case 'serve': {
      const role = roleOption(argv);
      // Loaded on demand: the server's module graph is most of the CLI's start-up time.
      await (await import('./main.js')).serve(config, env, role);
      return 0;
    }
    case 'import-v2hub':
      return runImportV2hub(argv.slice(argv.indexOf('import-v2hub') + 1), config, io);
    case 'migrate': {
      const database = createDatabase(config.databaseUrl);
      try {
        const applied = await migrateToLatest(database);
        io.stderr.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'already up to date\n');
      } finally {
        await database.close();
      }
      return 0;
    }
    case 'backup': {
      if (!sub || arg !== undefined) throw new UsageError('usage: backup <file>');
      try {
        const pages = await backupSqlite(config.databaseUrl, sub);
        io.stderr.write(`backed up ${pages} pages to ${sub}\n`);
        return 0;
      } catch (error) {
        if (!(error instanceof BackupError)) throw error;
        io.stderr.write(`subweave: ${error.message}\n`);
        return 1;
      }
    }
    case 'users create': {
      const userId = parseUserId(arg);
      const user = await actingAs(CLI, () => withDatabase(config, ({ db }) => createUser(db, userId)));
      io.stderr.write(`created user ${user.user_id}; its API token (shown once):\n`);
      io.stdout.write(`${user.api_token}\n`);
      return 0;
    }
    case 'users token': {
      const userId = parseUserId(arg);
      const result = await actingAs(CLI, () =>
        withDatabase(config, (database) => new UsersService(database, new ChangeLog(database)).refreshToken(userId)),
      );
      io.stderr.write(`new API token for user ${result.user_id} (the old one no longer works; shown once):\n`);
      io.stdout.write(`${result.api_token}\n`);
      return 0;
    }
    case 'providers create': {
      const [name, url] = rest;
      const ownerId = parseUserId(arg);
      if (!name || rest.length > 2) throw new UsageError('usage: providers create <owner_user_id> <name> [url]');
      const provider = await actingAs(CLI, () =>
        withDatabase(config, async (database) => {
          const changes = new ChangeLog(database);
          if (!(await new UsersService(database, changes).find(ownerId))) {
            const hint = `owner user ${ownerId} not found; create it first with: subweave users create ${ownerId}`;
            throw errors.userNotFound(hint);
          }
          return new ProvidersService(database, changes).create({
            owner_id: ownerId,
            provider_name: name,
            provider_url: url ?? null,
          });
        }),
      );
      io.stderr.write(
        `created provider ${provider.provider_name} (provider_hash ${provider.provider_hash}, owner ${ownerId}); its API token (shown once):\n`,
      );
      io.stdout.write(`${provider.api_token}\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown command: ${positionals.join(' ')}`);
  }
}

/** True when this file is the program node started (directly, or through the npm bin symlink), not an import. */
function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isEntryPoint()) process.exitCode = await run(process.argv.slice(2), process.env, process);
