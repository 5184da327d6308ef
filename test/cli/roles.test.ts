// `subweave serve --role api|worker`: API instances that never refresh, and a worker that refreshes without serving HTTP.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT_MS, runCli, spawnServe } from '../support/cli.js';
import { freePort, waitFor } from '../../scripts/support/private-services.js';
import { startUpstream, type UpstreamServer } from '../support/upstream-server.js';
import { sleep } from '../support/time.js';

const line = (host: string) => `trojan://pw@${host}.example.com:443#${host}`;

describe('serve roles', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'subweave-roles-'));
  const children: ChildProcess[] = [];
  let upstream: UpstreamServer;
  beforeAll(async () => {
    upstream = await startUpstream();
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const serve = async (env: Record<string, string>, role: string) => {
    const child = await spawnServe(env, ['--role', role]);
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return { child, output: () => output };
  };

  it('an api instance never refreshes; a worker on the same database refreshes and answers no HTTP', async () => {
    const databaseUrl = `sqlite:${join(dir, 'roles.db')}`;
    const created = await runCli(['users', 'create', '91'], { DATABASE_URL: databaseUrl });
    expect(created.code, created.stderr).toBe(0);
    const apiToken = created.stdout.trim();
    const feed = upstream.add(line('first'));
    const port = await freePort();
    const env = {
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      FETCH_ALLOW_PRIVATE: 'true',
      REFRESH_INTERVAL_SECONDS: '1',
      LOG_LEVEL: 'info',
    };
    const api = await serve(env, 'api');
    const base = `http://127.0.0.1:${port}`;
    expect(await waitFor(60_000, async () => (await fetch(`${base}/healthz`).catch(() => null))?.status === 200)).toBe(
      true,
    );
    const response = await fetch(`${base}/api/v1/subs`, {
      method: 'POST',
      headers: { 'api-token': apiToken, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'feed', sources: [feed] }),
    });
    expect(response.status).toBe(201);
    const token = ((await response.json()) as { token: string }).token;
    const plain = async () => (await fetch(`${base}/sub/${token}/plain`)).text();
    expect(await plain()).toBe(line('first'));

    // Three refresh intervals pass: the api instance fetched only the first time (when the source was added).
    upstream.set(feed, line('second'));
    await sleep(3_500);
    expect(upstream.hits(feed)).toBe(1);
    expect(await plain()).toBe(line('first'));

    // The worker shares the database and even PORT (it does not listen), refreshes, and the API serves the result.
    const worker = await serve(env, 'worker');
    expect(await waitFor(30_000, async () => (await plain()) === line('second'))).toBe(true);
    expect(upstream.hits(feed)).toBeGreaterThan(1);
    expect(worker.output()).toContain('running as worker');
    expect(worker.child.exitCode).toBeNull();
    expect(api.output()).toContain('running as api');

    const exited = new Promise<number | null>((resolve) => worker.child.once('exit', (code) => resolve(code)));
    worker.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('refuses an unknown role with a usage error', async () => {
    const result = await runCli(['serve', '--role', 'cron'], { DATABASE_URL: `sqlite:${join(dir, 'x.db')}` });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--role must be one of all, api, worker');
  });
});
