// Times one access line of the link lane two ways, pino's general path and the lane's template (logAnswered), into a stream that only counts, so the figure in docs/benchmarks.md can be reproduced.
import { pino } from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { linkUrlJson, logAnswered, safeSerializers } from '../src/http/request-log.js';

const LINES = 2_000_000;
const WARM_UP = 200_000;
const MOUNT = '/sub';
const TOKEN = 'DX294u8RLoZPoO7HNiOEBSMfe8dP96v87Lh4yhFwC-E';
const URL = `${MOUNT}/${TOKEN}`;
const REQUEST_ID = 'f6419b3f-ee12-4a33-a136-3de2dfb4f454';

let written = 0;
const counting = { write: (line: string) => (written += line.length) };
const log = pino({ level: 'info', serializers: safeSerializers }, counting) as unknown as FastifyBaseLogger;

function nanosecondsPerLine(line: (i: number) => void): number {
  for (let i = 0; i < WARM_UP; i++) line(i);
  const started = process.hrtime.bigint();
  for (let i = 0; i < LINES; i++) line(i);
  return Number(process.hrtime.bigint() - started) / LINES;
}

const viaPino = nanosecondsPerLine((i) =>
  log.info(
    {
      reqId: REQUEST_ID,
      req: { method: 'GET', url: URL, ip: '127.0.0.1' },
      res: { statusCode: 200 },
      responseTime: 0.5 + i * 1e-9,
    },
    'request completed',
  ),
);
const viaTemplate = nanosecondsPerLine((i) =>
  logAnswered(
    log,
    REQUEST_ID,
    { method: 'GET', urlJson: linkUrlJson(URL, MOUNT, TOKEN), ip: '127.0.0.1' },
    200,
    0.5 + i * 1e-9,
  ),
);
console.log(
  JSON.stringify({
    lines: LINES,
    pino_ns_per_line: Math.round(viaPino),
    template_ns_per_line: Math.round(viaTemplate),
    bytes_written: written,
  }),
);
