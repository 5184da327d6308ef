// A private PostgreSQL cluster stopped and started under a running app, and an app started while it is down.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createUser } from '../../src/modules/users/users.service.js';
import { ChangeLog } from '../../src/changes/change-log.js';
import { ExternalSources } from '../../src/modules/fetch/external-sources.js';
import { Refresher, type RefresherOptions } from '../../src/modules/fetch/refresher.js';
import { startTestApp, testConfig } from '../support/harness.js';
import { waitFor } from '../support/time.js';
import {
  canRunPrivatePostgres,
  freePort,
  privatePostgres,
  type PrivatePostgres,
} from '../../scripts/support/private-services.js';
import { CLI_TEST_TIMEOUT_MS, spawnServe } from '../support/cli.js';
import { expectError } from '../support/expect.js';

/**
 * Blocks this process (its event loop) until the server at `url` has gone away and come back, as a busy or
 * descheduled instance lives through a fast restart: its idle pool clients cannot have seen their connections close.
 */
function sleepThroughRestart(url: string): void {
  const bin = `/usr/lib/postgresql/${readdirSync('/usr/lib/postgresql').sort().at(-1)}/bin/pg_isready`;
  const port = new URL(url).port;
  const ready = () => spawnSync(bin, ['-h', '127.0.0.1', '-p', port, '-t', '1']).status === 0;
  let wentDown = false;
  for (const giveUpAt = Date.now() + 30_000; Date.now() < giveUpAt;) {
    if (!ready()) wentDown = true;
    else if (wentDown) return;
  }
  throw new Error('the server did not restart within 30 s');
}

describe.skipIf(!canRunPrivatePostgres)(
  'a private PostgreSQL stopped and started [postgres]',
  { timeout: CLI_TEST_TIMEOUT_MS },
  () => {
    let cluster: PrivatePostgres;
    let database: DatabaseHandle;
    let app: FastifyInstance;

    beforeAll(async () => {
      cluster = await privatePostgres();
      database = createDatabase(cluster.url, { poolSize: 4 });
      await migrateToLatest(database);
      app = (await startTestApp(testConfig(), database)).app;
    });

    afterAll(async () => {
      await app?.close();
      await database?.close();
      await cluster?.destroy();
    });

    it('keeps running through a stop, answers 503 with Retry-After, serves rendered links, and recovers after a start', async () => {
      const { api_token: apiToken } = await createUser(database.db, 4_100);
      const headers = { 'api-token': apiToken };
      const created = await app.inject({
        method: 'POST',
        url: '/api/v1/subs',
        headers,
        payload: { name: 'kept', sources: ['trojan://pw@kept.example.com:443#Kept'] },
      });
      expect(created.statusCode).toBe(201);
      const token = created.json<{ token: string }>().token;
      const rendered = await app.inject({ method: 'GET', url: `/sub/${token}?format=plain` });
      expect(rendered.statusCode).toBe(200);

      await cluster.stop();
      const listed = await app.inject({ method: 'GET', url: '/api/v1/subs', headers });
      expectError(listed, 503, 'database_unavailable');
      expect(Number(listed.headers['retry-after'])).toBeGreaterThan(0);
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
      const cached = await app.inject({ method: 'GET', url: `/sub/${token}?format=plain` });
      expect(cached.statusCode).toBe(200);
      expect(cached.body).toBe(rendered.body);

      const restartedAt = Date.now();
      await cluster.start();
      expect(
        await waitFor(
          10_000,
          async () => (await app.inject({ method: 'GET', url: '/api/v1/subs', headers })).statusCode === 200,
        ),
      ).toBe(true);
      expect(Date.now() - restartedAt).toBeLessThan(10_000);
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    });

    it('answers every request after a restart the process slept through: idle clients closed meanwhile are not handed out', async () => {
      const { api_token: apiToken } = await createUser(database.db, 4_200);
      const headers = { 'api-token': apiToken };
      const list = () => app.inject({ method: 'GET', url: '/api/v1/subs', headers }).then((res) => res.statusCode);
      // Every client of the pool (4) used and idle.
      expect(await Promise.all([list(), list(), list(), list()])).toEqual([200, 200, 200, 200]);
      expect(database.poolUse().idle).toBe(4);

      const restarted = cluster.restart();
      sleepThroughRestart(cluster.url);
      // The server is back: the first requests, more than the pool holds, and readiness all succeed.
      const first = await Promise.all(Array.from({ length: 6 }, list));
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      await restarted;
      expect(first).toEqual([200, 200, 200, 200, 200, 200]);
      expect(ready.statusCode).toBe(200);
    });

    it('the refresher logs a database outage once and without a stack, and logs the next outage again', async () => {
      const entries: Array<{ level: string; details: Record<string, unknown> }> = [];
      const record = (level: string) => (details: Record<string, unknown>) => entries.push({ level, details });
      const log = { info: record('info'), warn: record('warn'), error: record('error') };
      const upstream = { fetch: async () => ({ ok: true as const, lines: [] }) };
      const external = new ExternalSources(database, upstream, new ChangeLog(database));
      const refresher = new Refresher(external, { intervalSeconds: 3600, claimSeconds: 60, log } as RefresherOptions);
      const outage = async () => {
        await cluster.stop();
        for (let pass = 0; pass < 3; pass++) await refresher.tick();
        await cluster.start();
        const writable = () =>
          database.checkWritable().then(
            () => true,
            () => false,
          );
        expect(await waitFor(10_000, writable)).toBe(true);
        for (let pass = 0; pass < 2; pass++) await refresher.tick(); // a pass that works ends the outage
      };

      await outage();
      expect(entries.map((e) => e.level)).toEqual(['warn']);
      expect(entries[0]?.details).toEqual({ cause: expect.any(String) });
      await outage();
      expect(entries.map((e) => e.level)).toEqual(['warn', 'warn']);
      await refresher.stop();
    });

    it('a first fetch that runs on into an outage is logged in one line, without a stack', async () => {
      const entries: Array<{ level: string; details: object }> = [];
      const log = {
        warn: (details: object) => entries.push({ level: 'warn', details }),
        error: (details: object) => entries.push({ level: 'error', details }),
      };
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const upstream = {
        fetch: async () => (await held, { ok: true as const, lines: ['trojan://pw@first.example.net:443'] }),
      };
      const external = new ExternalSources(database, upstream, new ChangeLog(database));
      external.useLogger(log);
      // Answers after 10 ms, as a create does after FETCH_TIMEOUT_MS; the fetch goes on and is stored afterwards.
      await external.fetchNewWithin(['https://first.example.org/sub'], 10);
      await cluster.stop();
      try {
        release();
        expect(await waitFor(5_000, async () => entries.length > 0)).toBe(true);
        expect(entries).toEqual([{ level: 'warn', details: { cause: expect.any(String) } }]);
      } finally {
        await cluster.start();
      }
    });

    it('serve waits for a database that is down at start and serves once it is up', async () => {
      await cluster.stop();
      const port = await freePort();
      const child = await spawnServe({
        DATABASE_URL: cluster.url,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
      });
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      try {
        expect(await waitFor(30_000, async () => output.includes('database unreachable'))).toBe(true);
        await cluster.start();
        const up = await waitFor(
          20_000,
          async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status === 200,
        );
        expect(up, output).toBe(true);
        expect(output.match(/database unreachable/g)).toHaveLength(1);
      } finally {
        child.kill('SIGKILL');
      }
    });
  },
);
