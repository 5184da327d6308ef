// Large upstream bodies are parsed on a worker thread: the lines must equal the inline parser's, and a failing worker must cost neither a body nor the process.
import { afterEach, describe, expect, it } from 'vitest';
import { parseUpstreamLines } from '../../src/modules/fetch/content.js';
import { LineParser, type LineParserOptions } from '../../src/modules/fetch/line-parser.js';

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
  const expected = many(20_000, 'fail').slice(0, 500);

  it.each(['exit', 'throw'] as const)(
    'parses the body inline when the worker crashes (%s), and starts a new worker for the next body',
    async (mode) => {
      const failures: string[] = [];
      const failing = parser({
        inlineMaxBytes: 0,
        workerUrl: failingWorker(mode),
        onWorkerError: (error) => failures.push(error.message),
      });
      expect(await failing.parse(body, 500)).toEqual(expected);
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatch(mode === 'exit' ? /exited with code 3/ : /parser bug/);
      // The second body meets a second worker (which crashes too): one more failure, the same lines.
      expect(await failing.parse(body, 500)).toEqual(expected);
      expect(failures).toHaveLength(2);
    },
    WORKER_TIMEOUT_MS,
  );

  it(
    'parses inline, without trying again at once, when the worker cannot start',
    async () => {
      const failures: string[] = [];
      const failing = parser({
        inlineMaxBytes: 0,
        workerUrl: failingWorker('start'),
        onWorkerError: (error) => failures.push(error.message),
      });
      const results = await Promise.all([failing.parse(body, 500), failing.parse(body, 500)]);
      expect(results).toEqual([expected, expected]);
      expect(await failing.parse(body, 500)).toEqual(expected);
      expect(failures).toEqual([expect.stringMatching(/cannot load the parser/)]);
    },
    WORKER_TIMEOUT_MS,
  );

  it(
    'gives up on a body the worker does not answer, as an error of that body only',
    async () => {
      const failures: string[] = [];
      const hanging = parser({
        inlineMaxBytes: 0,
        jobTimeoutMs: 300,
        workerUrl: failingWorker('hang'),
        onWorkerError: (error) => failures.push(error.message),
      });
      await expect(hanging.parse(body, 500)).rejects.toThrow(/took longer than 300 ms/);
      // Not paused: the next body goes to a new worker (which hangs as well).
      await expect(hanging.parse(body, 500)).rejects.toThrow(/took longer than 300 ms/);
      expect(failures).toEqual([]);
    },
    WORKER_TIMEOUT_MS,
  );

  it('keeps small bodies inline and parses inline after close', async () => {
    const failures: string[] = [];
    const failing = parser({
      workerUrl: failingWorker('start'),
      onWorkerError: (error) => failures.push(error.message),
    });
    const small = many(100, 'small').join('\n');
    expect(await failing.parse(Buffer.from(small), 1000)).toEqual(many(100, 'small'));
    await failing.close();
    expect(await failing.parse(body, 500)).toEqual(expected);
    expect(failures).toEqual([]); // neither body reached the (failing) worker
  });
});
