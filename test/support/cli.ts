// Runs the subweave command in-process (fast, for most CLI tests) or as the built program dist/cli.js (for the few
// tests about the process itself: exit status, signals, start-up failures, racing instances).
import { execFile, type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { run } from '../../src/cli.js';

const execFileAsync = promisify(execFile);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const DIST_CLI = join(ROOT, 'dist', 'cli.js');
/** The package's bin (package.json), which runs dist/cli.js. */
export const BIN = join(ROOT, 'bin', 'subweave.js');

/** Building dist/ takes tens of seconds on a busy machine, and each spawn a second: give such tests room. */
export const CLI_TEST_TIMEOUT_MS = 120_000;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `subweave <args>` in this process with exactly `env` (plus LOG_LEVEL=silent); never throws. */
export async function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  };
  const code = await run(args, { LOG_LEVEL: 'silent', ...env }, io);
  return { code, stdout, stderr };
}

/** Runs `node dist/cli.js <args>` (or another path to it, such as a symlink) as a process; never throws. */
export async function spawnCli(
  args: string[],
  env: Record<string, string>,
  program: string = DIST_CLI,
): Promise<CliResult> {
  await buildCli();
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [program, ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Starts `node dist/cli.js serve [args]` with `env` on top of this process's environment; output is piped. */
export async function spawnServe(env: Record<string, string>, args: string[] = []): Promise<ChildProcess> {
  await buildCli();
  return spawn(process.execPath, [DIST_CLI, 'serve', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

let built: Promise<void> | null = null;

/**
 * Builds dist/ when it is missing or older than the sources (scripts/ensure-build.mjs, as `npm start` does). Test
 * files run in parallel processes, so one builds at a time under a lock folder and the others then find it fresh.
 */
export function buildCli(): Promise<void> {
  built ??= (async () => {
    const lock = join(ROOT, 'dist', '.test-build-lock');
    mkdirSync(dirname(lock), { recursive: true });
    for (;;) {
      try {
        mkdirSync(lock);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== 'EEXIST') throw error;
        // A lock older than any build is left over from a killed run.
        if (Date.now() - lockTime(lock) > CLI_TEST_TIMEOUT_MS) rmSync(lock, { recursive: true, force: true });
        else await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    try {
      await execFileAsync(process.execPath, ['scripts/ensure-build.mjs'], { cwd: ROOT });
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  })();
  return built;
}

function lockTime(lock: string): number {
  try {
    return statSync(lock).mtimeMs;
  } catch {
    return Date.now();
  }
}
