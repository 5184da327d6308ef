// Helpers for tests that run the CLI as a process or open a database from a URL, as a separate process would.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { DatabaseKind } from './harness.js';

const run = promisify(execFile);

/** Spawning the CLI compiles it with tsx, which takes seconds on a busy machine: give such tests room. */
export const CLI_TEST_TIMEOUT_MS = 120_000;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `subweave <args>` from the sources; never throws, the exit code is in the result. */
export async function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/**
 * A DATABASE_URL for an empty database that several processes or handles can open: a SQLite file in a temporary
 * folder, or a fresh schema on the TEST_DATABASE_URL server (selected through search_path).
 */
export async function scratchDatabaseUrl(kind: DatabaseKind): Promise<{ url: string; cleanup: () => Promise<void> }> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'subweave-'));
    return {
      url: `sqlite:${join(dir, 'nested', 'test.db')}`,
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const base = process.env['TEST_DATABASE_URL'] as string;
  const schema = `s_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  const options = encodeURIComponent(`-c search_path=${schema}`);
  return {
    url: `${base}${base.includes('?') ? '&' : '?'}options=${options}`,
    cleanup: async () => {
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    },
  };
}
