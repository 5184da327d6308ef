#!/usr/bin/env node
// The `subweave` command: serve, migrate, and bootstrap users and providers without the admin API.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { AppError, errors } from './http/errors.js';
import { createUser, UsersService } from './modules/users/users.service.js';
import { ProvidersService } from './modules/providers/providers.service.js';
import { ChangeLog } from './changes/change-log.js';
import { runAdmin } from './modules/admin/admin.cli.js';

const HELP = `Usage: subweave <command>

Commands:
  serve                     Start the HTTP server (migrates first). What \`npm start\` runs.
  migrate                   Apply database migrations and exit.
  users create <user_id>    Create a user; prints its API token once.
  users token <user_id>     Issue a new API token for a user (the old one stops working); prints it once.
  providers create <owner_user_id> <name> [url]
                            Create a provider owned by an existing user; prints its API token once.
                            name: 4-16 lower-case letters and digits, single inner hyphens.
  admin <verb> ...          Sign and send an admin API request to a running server (ADMIN_SECRET, --url);
                            \`subweave admin --help\` lists every verb.
  help                      Show this help.

Configuration comes from environment variables (see README), e.g. DATABASE_URL.

Examples:
  subweave users create 42
  TOKEN=$(subweave users token 42)
  PROVIDER_TOKEN=$(subweave providers create 42 my-vpn-bot https://bot.example.com)
  DATABASE_URL=postgres://localhost/subweave subweave migrate
  ADMIN_SECRET=... subweave admin users get 42 --url http://127.0.0.1:8080
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

async function run(argv: string[]): Promise<void> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: false });
  const [command, sub, arg, ...rest] = positionals;
  if (command === 'admin') {
    // A client of a running server: it needs no database and none of the server's configuration.
    process.exitCode = await runAdmin(argv.slice(argv.indexOf('admin') + 1));
    return;
  }
  if (!command || command === 'help' || argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return;
  }
  const config = loadConfig();
  switch (`${command}${sub && (command === 'users' || command === 'providers') ? ` ${sub}` : ''}`) {
    case 'serve':
      // Loaded on demand: the server's module graph is most of the CLI's start-up time.
      return (await import('./main.js')).serve(config);
    case 'migrate': {
      const database = createDatabase(config.databaseUrl);
      try {
        const applied = await migrateToLatest(database);
        process.stderr.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'already up to date\n');
      } finally {
        await database.close();
      }
      return;
    }
    case 'users create': {
      const userId = parseUserId(arg);
      const user = await withDatabase(config, ({ db }) => createUser(db, userId));
      process.stderr.write(`created user ${user.user_id}; its API token (shown once):\n`);
      process.stdout.write(`${user.api_token}\n`);
      return;
    }
    case 'users token': {
      const userId = parseUserId(arg);
      const result = await withDatabase(config, (database) =>
        new UsersService(database, new ChangeLog(database)).refreshToken(userId),
      );
      process.stderr.write(`new API token for user ${result.user_id} (the old one no longer works; shown once):\n`);
      process.stdout.write(`${result.api_token}\n`);
      return;
    }
    case 'providers create': {
      const [name, url] = rest;
      const ownerId = parseUserId(arg);
      if (!name || rest.length > 2) throw new UsageError('usage: providers create <owner_user_id> <name> [url]');
      const provider = await withDatabase(config, async (database) => {
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
      });
      process.stderr.write(
        `created provider ${provider.provider_name} (provider_hash ${provider.provider_hash}, owner ${ownerId}); its API token (shown once):\n`,
      );
      process.stdout.write(`${provider.api_token}\n`);
      return;
    }
    default:
      throw new UsageError(`unknown command: ${positionals.join(' ')}`);
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else if (error instanceof UsageError) process.stderr.write(`subweave: ${error.message}\n\n${HELP}`);
  else if (error instanceof AppError) process.stderr.write(`subweave: ${error.message}${issuesOf(error)}\n`);
  else process.stderr.write(`subweave: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
