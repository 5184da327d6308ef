// The built program dist/cli.js as a process: the bin entry (exit status, npm's symlink), one migrate, and `serve`
// (bounded shutdown with a hanging upstream, start-up warnings, one-line start-up failures).
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, buildCli, CLI_TEST_TIMEOUT_MS, runCli, spawnCli, spawnServe } from '../support/cli.js';
import { waitFor } from '../support/time.js';
import { freePort } from '../../scripts/support/private-services.js';
import { startUpstream, type UpstreamServer } from '../support/upstream-server.js';

const SHUTDOWN_TIMEOUT_MS = 1_500;

/** A start-up failure is one line naming the variable, never a stack trace. */
function expectOneLine(stderr: string, variable: string): void {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toContain(variable);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('subweave as a process', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  let dir = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'subweave-bin-'));
    await buildCli();
  }, CLI_TEST_TIMEOUT_MS);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 0 with the help through a symlink to the bin, as npm installs it, and 2 on a usage error', async () => {
    const link = join(dir, 'subweave');
    symlinkSync(BIN, link);
    const [help, usage, direct] = await Promise.all([
      spawnCli(['--help'], {}, link),
      spawnCli(['frobnicate'], { DATABASE_URL: 'sqlite::memory:' }, BIN),
      spawnCli(['--help'], {}),
    ]);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: subweave <command>');
    // The bin runs the very program dist/cli.js runs.
    expect(help.stdout).toBe(direct.stdout);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('unknown command');
  });

  it('migrate applies the schema and exits 0', async () => {
    const result = await spawnCli(['migrate'], { DATABASE_URL: `sqlite:${join(dir, 'migrate.db')}` });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('001_initial_schema');
  });
});

describe('subweave serve', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  let dir = '';
  let upstream: UpstreamServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'subweave-serve-'));
    upstream = await startUpstream();
    await buildCli();
  }, CLI_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await upstream?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits within SHUTDOWN_TIMEOUT_MS on SIGTERM while an upstream hangs, and warns about its configuration', async () => {
    const databaseUrl = `sqlite:${join(dir, 'serve.db')}`;
    const created = await runCli(['users', 'create', '77'], { DATABASE_URL: databaseUrl });
    expect(created.code, created.stderr).toBe(0);
    const apiToken = created.stdout.trim();
    const hanging = upstream.add(() => undefined); // accepts the request and never answers

    const port = await freePort();
    const child = await spawnServe({
      DATABASE_URL: databaseUrl,
      HOST: '0.0.0.0',
      PORT: String(port),
      PUBLIC_BASE_URL: '',
      LOG_LEVEL: 'info',
      FETCH_ALLOW_PRIVATE: 'true',
      FETCH_TIMEOUT_MS: '60000',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      ADMIN_SECRET: 'twenty-characters-ok',
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const base = `http://127.0.0.1:${port}`;
    try {
      expect(
        await waitFor(60_000, async () => (await fetch(`${base}/healthz`).catch(() => null))?.status === 200),
      ).toBe(true);
      await fetch(`${base}/healthz`, { headers: { 'x-forwarded-for': '203.0.113.9' } });

      // Creating a subscription fetches its new external URL: this request now waits on the hanging upstream.
      const pending = fetch(`${base}/api/v1/subs`, {
        method: 'POST',
        headers: { 'api-token': apiToken, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'hangs', sources: [hanging] }),
      }).catch(() => null);
      expect(await waitFor(10_000, async () => upstream.hits(hanging) > 0)).toBe(true);

      const signalledAt = Date.now();
      child.kill('SIGTERM');
      await exited;
      const tookMs = Date.now() - signalledAt;
      expect(tookMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 1_000);
      await pending;
    } finally {
      child.kill('SIGKILL');
    }
    expect(output).toContain('PUBLIC_BASE_URL');
    expect(output).toContain('TRUST_PROXY');
    const secretWarnings = output.split('\n').filter((line) => line.includes('ADMIN_SECRET has 20 characters'));
    expect(secretWarnings, output).toHaveLength(1);
    expect(JSON.parse(secretWarnings[0] as string)).toMatchObject({ level: 40 });
    expect(secretWarnings[0]).toContain('openssl rand -base64 32');
    expect(output).not.toContain('twenty-characters-ok');
    // The last line is logged just before process.exit: the log's batch is written at exit, not lost with the turn.
    expect(output).toContain('"msg":"shutting down"');
    expect(output).toContain('shutdown did not finish in SHUTDOWN_TIMEOUT_MS; exiting now');
    expect(output).not.toMatch(/\n\s+at /);
  });

  it('names PORT when the port is in use', async () => {
    const blocker: Server = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const result = await spawnCli(['serve'], {
        DATABASE_URL: `sqlite:${join(dir, 'port.db')}`,
        HOST: '127.0.0.1',
        PORT: String(port),
      });
      expect(result.code).toBe(1);
      expectOneLine(result.stderr, 'PORT');
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('refuses to start with an ADMIN_SECRET shorter than 16 characters, saying how to make one', async () => {
    const result = await spawnCli(['serve'], {
      DATABASE_URL: `sqlite:${join(dir, 'secret.db')}`,
      HOST: '127.0.0.1',
      PORT: '0',
      ADMIN_SECRET: 'fifteen-chars-x',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ADMIN_SECRET must be at least 16 characters (got 15)');
    expect(result.stderr).toContain('openssl rand -base64 32');
    expect(result.stderr).not.toContain('fifteen-chars-x');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('names DATABASE_URL for a SQLite folder that does not exist, and for a malformed URL', async () => {
    const missing = await spawnCli(['serve'], {
      DATABASE_URL: `sqlite:${join(dir, 'no-such-folder', 'x.db')}`,
      HOST: '127.0.0.1',
      PORT: '0',
    });
    expect(missing.code).toBe(1);
    expectOneLine(missing.stderr, 'DATABASE_URL');

    const malformed = await spawnCli(['serve'], {
      DATABASE_URL: 'postgres://[not-a-host',
      HOST: '127.0.0.1',
      PORT: '0',
    });
    expect(malformed.code).toBe(1);
    expectOneLine(malformed.stderr, 'DATABASE_URL');
  });
});
