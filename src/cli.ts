#!/usr/bin/env node
// The `subweave` command: serve, migrate, and bootstrap users without the admin API.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { AppError } from './http/errors.js';
import { serve } from './main.js';
import { createUser, rotateUserToken } from './modules/users/users.service.js';

const HELP = `Usage: subweave <command>

Commands:
  serve                     Start the HTTP server (migrates first). What \`npm start\` runs.
  migrate                   Apply database migrations and exit.
  users create <user_id>    Create a user; prints its API token once.
  users token <user_id>     Issue a new API token for a user (the old one stops working); prints it once.
  help                      Show this help.

Configuration comes from environment variables (see README), e.g. DATABASE_URL.

Examples:
  subweave users create 42
  TOKEN=$(subweave users token 42)
  DATABASE_URL=postgres://localhost/subweave subweave migrate
`;

async function withDatabase<T>(config: Config, work: (db: ReturnType<typeof createDatabase>) => Promise<T>): Promise<T> {
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

async function run(argv: string[]): Promise<void> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: false });
  const [command, sub, arg] = positionals;
  if (!command || command === 'help' || argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return;
  }
  const config = loadConfig();
  switch (`${command}${sub && command === 'users' ? ` ${sub}` : ''}`) {
    case 'serve':
      return serve(config);
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
      const result = await withDatabase(config, ({ db }) => rotateUserToken(db, userId));
      process.stderr.write(`new API token for user ${result.user_id} (the old one no longer works; shown once):\n`);
      process.stdout.write(`${result.api_token}\n`);
      return;
    }
    default:
      throw new UsageError(`unknown command: ${positionals.join(' ')}`);
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else if (error instanceof UsageError) process.stderr.write(`subweave: ${error.message}\n\n${HELP}`);
  else if (error instanceof AppError) process.stderr.write(`subweave: ${error.message}\n`);
  else process.stderr.write(`subweave: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
