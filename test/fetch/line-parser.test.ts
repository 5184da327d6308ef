// Large upstream bodies are parsed on a worker thread: the lines must equal the inline parser's, and a failing worker or a hostile body must cost neither the process nor the event loop (never parsed inline).
import { afterEach, describe, expect, it } from 'vitest';
import { parseUpstreamLines } from '../../src/modules/fetch/content.js';
import {
  LineParser,
  ParserClosed,
  UpstreamUnparseable,
  type LineParserOptions,
} from '../../src/modules/fetch/line-parser.js';

const MAX_BYTES = 5 * 1024 * 1024;
/** Starting a worker from the TypeScript sources compiles them with tsx, which takes seconds on a busy machine. */
const WORKER_TIMEOUT_MS = 60_000;

const many = (count: number, label: string) =>
  Array.from({ length: count }, (_, i) => `trojan://pw${i}@${label}-${i}.example.net:443?sni=example.org#r${i}`);
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** Bodies that exercise every branch of the parser, each large enough for the worker. */
function bodies(): Record<string, Buffer> {
  const lines = many(40_000, 'big');
  const accented = many(8_000, 'utf').map((line, i) => `${line}-%F0%9F%87%A9${i % 2 ? 'é中' : ''}`);
  return {
    'wrapped base64': Buffer.from(base64(lines.join('\n')).replace(/(.{76})/g, '$1\r\n')),
    'URL-safe base64 with a BOM': Buffer.from(`\uFEFF${Buffer.from(lines.join('\n')).toString('base64url')}`),
    'plain CRLF with multi-byte characters': Buffer.from(`\uFEFF${accented.join('\r\n')}`),
    'plain with duplicates and comments': Buffer.from(
      [...lines.slice(0, 5_000), '# comment', '', ...lines.slice(0, 10_000)].join('\n'),
    ),
    'not a subscription': Buffer.from(`${base64(lines.join('\n'))}!`),
  };
}

const parsers: LineParser[] = [];
function parser(options: Partial<LineParserOptions> = {}): LineParser {
  const created = new LineParser({ maxBytes: MAX_BYTES, ...options });
  parsers.push(created);
  return created;
}

function failingWorker(mode: 'start' | 'exit' | 'throw' | 'hang'): URL {
  return new URL(`../support/failing-parse-worker.ts?mode=${mode}`, import.meta.url);
}

afterEach(async () => {
  await Promise.all(parsers.splice(0).map((p) => p.close()));
});

describe('LineParser on the worker thread', () => {
  it(
    'gives the same lines as the inline parser, with and without a cap',
    async () => {
      const onWorkerError = (error: Error) => expect.fail(`the worker failed: ${error.message}`);
      const onWorker = parser({ inlineMaxBytes: 0, onWorkerError });
      for (const [name, body] of Object.entries(bodies())) {
        expect(body.length, name).toBeGreaterThan(64 * 1024);
        for (const cap of [Number.POSITIVE_INFINITY, 2000, 7]) {
          const inline = await parseUpstreamLines(body, cap);
          expect(await onWorker.parse(body, cap), `${name}, cap ${cap}`).toEqual(inline);
        }
      }
    },
    WORKER_TIMEOUT_MS,
  );

  it(
    'parses bodies sent at once one after the other, each with its own result',
    async () => {
      const onWorker = parser({ inlineMaxBytes: 0 });
      const inputs = [many(3_000, 'a'), many(5_000, 'b'), many(4_000, 'c')].map((lines) =>
        Buffer.from(base64(lines.join('\n'))),
      );
      const results = await Promise.all(inputs.map((body) => onWorker.parse(body, 4_000)));
      expect(results.map((lines) => lines.length)).toEqual([3_000, 4_000, 4_000]);
      expect(results[1]?.[0]).toContain('@b-0.');
      expect(results[2]?.[3_999]).toContain('@c-3999.');
    },
    WORKER_TIMEOUT_MS,
  );
});

describe('LineParser when the worker fails', () => {
  const body = Buffer.from(base64(many(20_000, 'fail').join('\n')));

  it.each(['exit', 'throw'] as const)(
    'makes the body unparseable when the worker crashes (%s), never parsing it inline, and starts a new worker for the next body',
    async (mode) => {
      const failures: string[] = [];
      const failing = parser({
        inlineMaxBytes: 0,
        workerUrl: failingWorker(mode),
        onWorkerError: (error) => failures.push(error.message),
      });
      await expect(failing.parse(body, 500)).rejects.toBeInstanceOf(UpstreamUnparseable);
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatch(mode === 'exit' ? /exited with code 3/ : /parser bug/);
      // The second body meets a second worker (which crashes too): one more failure, the same answer.
      await expect(failing.parse(body, 500)).rejects.toBeInstanceOf(UpstreamUnparseable);
      expect(failures).toHaveLength(2);
    },
    WORKER_TIMEOUT_MS,
  );

  it(
    'makes large bodies unparseable, without trying again at once, when the worker cannot start',
    async () => {
      const failures: string[] = [];
      const failing = parser({
        inlineMaxBytes: 0,
        workerUrl: failingWorker('start'),
        onWorkerError: (error) => failures.push(error.message),
      });
      const results = await Promise.allSettled([failing.parse(body, 500), failing.parse(body, 500)]);
      for (const result of results)
        expect(result).toMatchObject({ status: 'rejected', reason: expect.any(UpstreamUnparseable) });
      await expect(failing.parse(body, 500)).rejects.toThrow(/could not start/);
      expect(failures).toEqual([expect.stringMatching(/cannot load the parser/)]);
    },
    WORKER_TIMEOUT_MS,
  );

  it(
    'gives up on a body the worker does not answer, as an unparseable body',
    async () => {
      const failures: string[] = [];
      const hanging = parser({
        inlineMaxBytes: 0,
        jobTimeoutMs: 300,
        workerUrl: failingWorker('hang'),
        onWorkerError: (error) => failures.push(error.message),
      });
      await expect(hanging.parse(body, 500)).rejects.toThrow(UpstreamUnparseable);
      // Not paused: the next body goes to a new worker (which hangs as well).
      await expect(hanging.parse(body, 500)).rejects.toThrow(/took longer than 300 ms/);
      expect(failures).toEqual([]);
    },
    WORKER_TIMEOUT_MS,
  );

  it('keeps small bodies inline, and refuses large ones after close without parsing them', async () => {
    const failures: string[] = [];
    const failing = parser({
      workerUrl: failingWorker('start'),
      onWorkerError: (error) => failures.push(error.message),
    });
    const small = many(100, 'small').join('\n');
    expect(await failing.parse(Buffer.from(small), 1000)).toEqual(many(100, 'small'));
    await failing.close();
    await expect(failing.parse(body, 500)).rejects.toBeInstanceOf(ParserClosed);
    expect(failures).toEqual([]); // neither body reached the (failing) worker
  });
});

describe('LineParser on hostile structured bodies (the real worker and its limits)', () => {
  const INLINE = 64 * 1024;

  it(
    'sends a small profile to the worker, never parsing it inline, and refuses it there when nested too deep',
    async () => {
      const failing = parser({ workerUrl: failingWorker('throw') });
      const yaml = deepYaml(4_500);
      expect(yaml.length).toBeLessThanOrEqual(INLINE);
      // The failing worker answers every body with a failure: had the profile been parsed inline, it would not fail.
      const profile = Buffer.from(
        `proxies:\n  - {name: a, type: ss, server: a.example.com, port: 1, cipher: aes-128-gcm, password: p}\n`,
      );
      await expect(failing.parse(profile, 100)).rejects.toBeInstanceOf(UpstreamUnparseable);
      const onWorker = parser({ onWorkerError: (error) => expect.fail(`the worker failed: ${error.message}`) });
      await expect(onWorker.parse(yaml, 100)).rejects.toThrow(/nesting deeper than 64/);
      await expect(onWorker.parse(deepJson(64), 100)).rejects.toThrow(UpstreamUnparseable);
      expect(await onWorker.parse(profile, 100)).toEqual([expect.stringMatching(/^ss:\/\//)]);
    },
    WORKER_TIMEOUT_MS,
  );

  it(
    'refuses a deeply nested profile and an alias bomb on the worker, which keeps working',
    async () => {
      const onWorkerError = (error: Error) => expect.fail(`the worker failed: ${error.message}`);
      const onWorker = parser({ onWorkerError });
      const deep = deepYaml(33_000);
      const bomb = aliasBomb(INLINE + 1);
      for (const hostile of [deep, bomb]) expect(hostile.length).toBeGreaterThan(INLINE);
      await expect(onWorker.parse(deep, 100)).rejects.toThrow(/nesting deeper than 64/);
      await expect(onWorker.parse(bomb, 100)).rejects.toThrow(/more than 1000 YAML/);
      const lines = many(3_000, 'after');
      expect(await onWorker.parse(Buffer.from(lines.join('\n')), 5_000)).toEqual(lines);
    },
    WORKER_TIMEOUT_MS,
  );
});

/** A mihomo profile whose `proxies` value is `depth` nested flow sequences. */
function deepYaml(depth: number): Buffer {
  return Buffer.from(`proxies: ${'['.repeat(depth)}${']'.repeat(depth)}\n`);
}

function deepJson(depth: number): Buffer {
  return Buffer.from(`{"outbounds":${'['.repeat(depth)}${']'.repeat(depth)}}`);
}

/** A mihomo profile of at least `bytes` whose proxies all merge one anchored map: more than 1,000 merge keys. */
function aliasBomb(bytes: number): Buffer {
  const items: string[] = [];
  for (let i = 0; items.join('\n').length < bytes || i <= 1_000; i++) items.push(`  - {<<: *base, name: n${i}}`);
  return Buffer.from(`base: &base {type: ss, server: a.example.com, port: 1}\nproxies:\n${items.join('\n')}\n`);
}
