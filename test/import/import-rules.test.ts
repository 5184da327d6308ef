// `subweave import-v2hub` applies the API's field and reference rules, reports every change, and a dry run reports the same.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { hasSubweaveTables } from '../../src/modules/import/target.store.js';
import { runCli, type CliResult } from '../support/cli.js';
import {
  clientFor,
  scratchDatabaseUrl,
  startTestApp,
  testConfig,
  testDatabaseKinds,
  TEST_BASE_URL,
  type TestClient,
} from '../support/harness.js';
import {
  config,
  CONTROL_CONFIG,
  createRulesFixture,
  HUGE_DESCRIPTION,
  LONG_COMMENT,
  LONG_NAME,
  type RulesFixture,
} from './v2hub-rules-fixture.js';

const pgUrl = process.env['TEST_DATABASE_URL'];
const short = (token: string): string => `${token.slice(0, 8)}...`;

function importInto(target: string, fixture: RulesFixture, ...flags: string[]): Promise<CliResult> {
  return runCli(['import-v2hub', '--from', fixture.url, ...flags], {
    DATABASE_URL: target,
    PUBLIC_BASE_URL: TEST_BASE_URL,
    MAX_SOURCES_PER_SUBSCRIPTION: '4',
    MAX_NESTING_DEPTH: '3',
  });
}

/** The report without its first line, and with a dry run's wording made the same as a real run's. */
const body = (report: string): string => report.split('\n').slice(1).join('\n').replaceAll('would be new', 'new');

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;

describe.skipIf(!pgUrl)('subweave import-v2hub applies the API rules', () => {
  let fixture: RulesFixture;
  beforeAll(async () => {
    fixture = await createRulesFixture(pgUrl as string);
  });
  afterAll(async () => {
    await fixture?.drop();
  });

  for (const kind of testDatabaseKinds()) {
    describe(`into ${kind}`, () => {
      let target: { url: string; cleanup: () => Promise<void> };
      let dry: CliResult;
      let dryWroteNothing: boolean;
      let result: CliResult;
      let handle: DatabaseHandle;
      let app: FastifyInstance;
      let t: TestClient;

      beforeAll(async () => {
        target = await scratchDatabaseUrl(kind);
        dry = await importInto(target.url, fixture, '--dry-run');
        if (kind === 'sqlite') dryWroteNothing = !existsSync(target.url.slice('sqlite:'.length));
        else {
          const probe = createDatabase(target.url);
          dryWroteNothing = !(await hasSubweaveTables(probe.db, probe.dialect));
          await probe.close();
        }
        result = await importInto(target.url, fixture);
        handle = createDatabase(target.url);
        ({ app } = await startTestApp(testConfig({ DATABASE_URL: target.url }), handle));
        t = clientFor(app, '');
      });
      afterAll(async () => {
        await app?.close();
        await handle?.close();
        await target?.cleanup();
      });

      const subscription = async (token: string) => {
        const res = await t.call('GET', `/api/v1/subs/${token}`, { token: fixture.apiToken });
        expect(res.statusCode).toBe(200);
        return res.json() as {
          name: string;
          description: string | null;
          sources: Array<{ source_type: string; data: string; comment: string | null }>;
        };
      };
      const refs = async (token: string) =>
        (await subscription(token)).sources.filter((s) => s.source_type === 'internal_token').map((s) => s.data);
      const linkTo = (token: string) => `${TEST_BASE_URL}/api/v1/sub/${token}`;

      it('removes control characters from names, descriptions and comments, and reports each', async () => {
        expect(result.code, result.stderr).toBe(0);
        const sub = await subscription(fixture.subs.control);
        expect(sub.name).toBe('Control room');
        expect(sub.description).toBe('firstline');
        expect(sub.sources.map((s) => s.comment)).toEqual(['Paris']);
        for (const text of [sub.name, sub.description, sub.sources[0]?.comment]) expect(text).not.toMatch(CONTROL);
        const key = short(fixture.subs.control);
        expect(result.stdout).toContain(`subscriptions ${key}: name: 2 control characters removed`);
        expect(result.stdout).toContain(`subscriptions ${key}: description: 2 control characters removed`);
        expect(result.stdout).toMatch(new RegExp(`sources ${key}/[0-9a-f]{32}: comment: 2 control characters removed`));
        // A source holding a control character is refused by the API, so it is not imported.
        expect(result.stdout).toContain('sources: not a valid config: contains a control character');
        expect(sub.sources.map((s) => s.data)).not.toContain(CONTROL_CONFIG);
      });

      it('cuts an over-long name, a 1 MB description and a comment between code points; the link headers stay small', async () => {
        const sub = await subscription(fixture.subs.big);
        expect(sub.name).toBe([...LONG_NAME].slice(0, 64).join(''));
        expect(sub.description).toBe([...HUGE_DESCRIPTION].slice(0, 64).join(''));
        expect(sub.description?.endsWith('😀')).toBe(true);
        expect(sub.sources[0]?.comment).toBe([...LONG_COMMENT].slice(0, 256).join(''));
        const key = short(fixture.subs.big);
        expect(result.stdout).toContain(`subscriptions ${key}: name: cut from 65 to 64 characters`);
        expect(result.stdout).toContain(`subscriptions ${key}: description: cut from 262207 to 64 characters`);
        expect(result.stdout).toMatch(
          new RegExp(`sources ${key}/[0-9a-f]{32}: comment: cut from 265 to 256 characters`),
        );

        const link = await t.call('GET', `/sub/${fixture.subs.big}?format=plain`);
        expect(link.statusCode).toBe(200);
        const title = String(link.headers['profile-title']);
        expect(Buffer.from(title.replace(/^base64:/, ''), 'base64').toString('utf8')).toBe(sub.description);
        const headerBytes = Object.entries(link.headers).reduce((n, [k, v]) => n + k.length + String(v).length, 0);
        expect(headerBytes).toBeLessThan(4096);
        expect(link.body).toBe(`${config('big')}#${encodeURIComponent(sub.sources[0]?.comment ?? '')}`);
      });

      it('breaks a cycle of three references by dropping the later one, and drops a self-reference', async () => {
        expect(await refs(fixture.subs.cycleA)).toEqual([linkTo(fixture.subs.cycleB)]);
        expect(await refs(fixture.subs.cycleB)).toEqual([linkTo(fixture.subs.cycleC)]);
        expect(await refs(fixture.subs.cycleC)).toEqual([]);
        const [a, b, c] = [fixture.subs.cycleA, fixture.subs.cycleB, fixture.subs.cycleC].map(short);
        expect(result.stdout).toContain(
          `reference dropped: it closes the reference cycle ${c} -> ${a} -> ${b} -> ${c}`,
        );
        expect(await refs(fixture.subs.self)).toEqual([]);
        expect(result.stdout).toMatch(
          new RegExp(
            `sources: reference dropped: the subscription references itself \\(1\\): ${short(fixture.subs.self).replace(/[.-]/g, '\\$&')}/`,
          ),
        );
        const link = await t.call('GET', `/sub/${fixture.subs.cycleA}?format=plain`);
        expect(link.body.split('\n').map((l) => l.split('#')[0])).toEqual([config('a'), config('b'), config('c')]);
      });

      it('drops what the API refuses that would reach the link: a chain too deep, too many sources, a private upstream', async () => {
        expect(await refs(fixture.subs.d3)).toEqual([linkTo(fixture.subs.d4)]);
        expect(await refs(fixture.subs.d4)).toEqual([]);
        expect(result.stdout).toContain('it makes a chain of 4 nested references, more than MAX_NESTING_DEPTH (3)');
        expect((await subscription(fixture.subs.many)).sources.map((s) => s.data)).toEqual(
          [1, 2, 3, 4].map((i) => config(`many${i}`)),
        );
        expect(result.stdout).toContain('sources: its subscription already holds MAX_SOURCES_PER_SUBSCRIPTION (4) (2)');
        expect((await subscription(fixture.subs.d5)).sources.map((s) => s.data)).toEqual([config('d5')]);
        expect(result.stdout).toContain('sources: not an acceptable URL: address 127.0.0.1 is not a public address');
      });

      it('a dry run wrote nothing and reported exactly the same changes', () => {
        expect(dry.code, dry.stderr).toBe(0);
        expect(dryWroteNothing).toBe(true);
        expect(dry.stdout).toMatch(/^v2hub import, dry run: nothing was written\n/);
        expect(dry.stdout).toContain("changed to meet the API's rules");
        expect(body(dry.stdout)).toBe(body(result.stdout));
      });
    });
  }
});
