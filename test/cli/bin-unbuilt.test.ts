// `npx subweave` in a copy that was never built (no dist/): the bin says to build instead of failing obscurely.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT_MS } from '../support/cli.js';

const ROOT = new URL('../..', import.meta.url);

/** Runs a program in `cwd`; resolves with its exit status and output, never throws. */
async function runIn(cwd: string, file: string, args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(file, args, { cwd, env: { ...process.env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the bin before the first build', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  const copy = mkdtempSync(join(tmpdir(), 'subweave-unbuilt-'));
  cpSync(new URL('package.json', ROOT), join(copy, 'package.json'));
  cpSync(new URL('bin', ROOT), join(copy, 'bin'), { recursive: true });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  const expectBuildAdvice = (result: { code: number; stdout: string; stderr: string }) => {
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${join(copy, 'dist', 'cli.js')} is missing`);
    expect(result.stderr).toContain('npm run build');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  };

  it('says to run npm run build, through npx as a user would type it', async () => {
    expectBuildAdvice(await runIn(copy, 'npx', ['--offline', '--no-install', 'subweave', '--help']));
  });

  it('says the same when the bin is run directly', async () => {
    expectBuildAdvice(await runIn(copy, process.execPath, [join(copy, 'bin', 'subweave.js'), 'serve']));
  });
});
