// The link pipeline's batch of answers at the end of a turn: an answer node:http refuses to write goes to the caller's
// fallback, a fallback that throws costs only its own response, never the answers queued after it, and the answers
// written together are accounted for with one clock reading.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LinkPipeline,
  type LinkPipelineOptions,
  type LinkRequest,
  type LinkResponse,
} from '../../src/modules/resolve/link-pipeline.js';
import { RequestHistory } from '../../src/modules/history/request-history.js';

interface Answered {
  status: number;
  body: string;
}

/** GET `path`; resolves with what came back, or with status 0 when the connection was given up. */
function get(base: string, path: string): Promise<Answered> {
  return new Promise((resolve) => {
    const req = httpRequest(`${base}${path}`, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', () => resolve({ status: 0, body }));
    });
    req.on('error', () => resolve({ status: 0, body: '' }));
    req.end();
  });
}

function linkRequest(raw: IncomingMessage): LinkRequest {
  return {
    raw,
    token: 'token-of-a-test',
    pathFormat: undefined,
    queryFormat: undefined,
    ip: '127.0.0.1',
    id: 'request-1',
    started: 0,
    route: '/sub/:token',
    urlJson: '"/sub/token-…"',
  };
}

function answer(headers: string[], body: string): LinkResponse {
  return {
    status: 200,
    headers,
    body: Buffer.from(body),
    choice: { result: 'base64', rule: 'default' },
    servers: 1,
  };
}

describe('link pipeline: writing a turn of answers', () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (closers.length > 0) await closers.pop()!();
  });

  /**
   * A server that holds requests until `count` have come, then queues an answer for each in one synchronous pass
   * (one turn), in the order of their paths, as the lane does for the requests of one turn.
   */
  async function serveInOneTurn(
    count: number,
    queue: (pipeline: LinkPipeline, raw: IncomingMessage, response: ServerResponse) => void,
    history = new RequestHistory({ write: async () => undefined }),
  ) {
    const errors: string[] = [];
    const lines: Array<{ level: number; msg: string; time: number }> = [];
    // Each reading of the log's clock is the next number: lines that share a reading show the same time.
    let readings = 0;
    const log = pino(
      { level: 'info', timestamp: () => `,"time":${++readings}` },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString().split('\n').filter(Boolean)) {
            const entry = JSON.parse(line) as { level: number; msg: string; time: number };
            lines.push(entry);
            if (entry.level >= 50) errors.push(entry.msg);
          }
          done();
        },
      }),
    ) as unknown as FastifyBaseLogger;
    const options: Pick<LinkPipelineOptions, 'count' | 'history' | 'routeObserver' | 'log' | 'stopping'> = {
      count: () => undefined,
      history,
      routeObserver: () => undefined,
      log,
      stopping: () => false,
    };
    // Writing and accounting read only these options.
    const pipeline = new LinkPipeline(options as LinkPipelineOptions);
    const held: Array<[IncomingMessage, ServerResponse]> = [];
    const server = createServer((raw, response) => {
      held.push([raw, response]);
      if (held.length < count) return;
      // In the order of their paths, whatever order they came in.
      held.sort(([a], [b]) => (a.url! < b.url! ? -1 : 1));
      for (const [heldRaw, heldResponse] of held.splice(0)) queue(pipeline, heldRaw, heldResponse);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, errors, lines };
  }

  it('hands an answer node:http refuses to write to the fallback, which answers instead', async () => {
    const { base } = await serveInOneTurn(1, (pipeline, raw, response) => {
      pipeline.deliver(linkRequest(raw), response, answer(['profile-title', 'bad\r\nvalue'], 'never'), () => {
        response.writeHead(503, { 'content-type': 'text/plain' }).end('fallback');
      });
    });
    expect(await get(base, '/a')).toEqual({ status: 503, body: 'fallback' });
  });

  it('gives up only the response whose fallback throws, and writes the answers queued after it', async () => {
    // `/broken` is queued before `/fine`.
    const { base, errors } = await serveInOneTurn(2, (pipeline, raw, response) => {
      const broken = raw.url === '/broken';
      const headers = broken ? ['profile-title', 'bad\r\nvalue'] : ['content-type', 'text/plain'];
      pipeline.deliver(linkRequest(raw), response, answer(headers, `answer for ${raw.url}`), () => {
        throw new Error('the fallback failed too');
      });
    });
    const [broken, fine] = await Promise.all([get(base, '/broken'), get(base, '/fine')]);
    expect(broken.status).toBe(0);
    expect(fine).toEqual({ status: 200, body: 'answer for /fine' });
    expect(errors).toContain('answering after a failed link write failed too');
  });

  it('accounts for the answers of one turn with one reading of the history clock and of the log clock', async () => {
    let historyReadings = 0;
    const history = new RequestHistory({ write: async () => undefined, clock: () => ++historyReadings });
    const { base, lines } = await serveInOneTurn(
      3,
      (pipeline, raw, response) => {
        pipeline.deliver(linkRequest(raw), response, answer(['content-type', 'text/plain'], `for ${raw.url}`), () => {
          throw new Error('unexpected fallback');
        });
      },
      history,
    );
    const answers = await Promise.all(['/a', '/b', '/c'].map((path) => get(base, path)));
    expect(answers.map((answered) => answered.status)).toEqual([200, 200, 200]);
    // The batch is accounted for right after its writes, in the same turn the answers went out.
    const rows = history.pendingRows('token-of-a-test');
    expect(rows.map((row) => row.at)).toEqual(Array(3).fill(new Date(1).toISOString()));
    expect(historyReadings).toBe(1);
    const completions = lines.filter((line) => line.msg === 'request completed');
    expect(completions).toHaveLength(3);
    expect(new Set(completions.map((line) => line.time))).toEqual(new Set([completions[0]!.time]));
  });
});
