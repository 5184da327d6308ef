// What a request looks like in the logs: never an API token, an admin signature, an invite or a whole subscription token.
import { performance } from 'node:perf_hooks';
import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { symbols, type Logger } from 'pino';
import { isAccounted } from './self-accounted.js';

/** The segment after one of these (case-insensitive, after percent-decoding) is a subscription token. */
const TOKEN_PARENTS = new Set(['sub', 'subs']);
const LONGEST_PARENT = Math.max(...[...TOKEN_PARENTS].map((parent) => parent.length));
const SHOWN_TOKEN_CHARS = 6;

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
}

/**
 * `/sub/AbCdEf...` becomes `/sub/AbCdEf…`, in every mount (`/api/v1/sub/`, `/api/v1/subs/`, the provider mount) and
 * however the path is spelled; an `invite` in the query becomes `…`.
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i] ?? '';
    if (segment.length > SHOWN_TOKEN_CHARS && TOKEN_PARENTS.has(decoded(segments[i - 1] ?? ''))) {
      segments[i] = `${segment.slice(0, SHOWN_TOKEN_CHARS)}…`;
    }
  }
  const query = queryAt < 0 ? '' : url.slice(queryAt).replace(/([?&]invite=)[^&]*/gi, '$1…');
  return segments.join('/') + query;
}

/**
 * redactUrl's result for a URL the link lane matched (`<mount>/<token>`, then at most a plain format segment or
 * query), as a JSON string of ASCII only, the ellipsis written `\u2026`: built from the parts the lane already has,
 * without parsing the URL again, and a one-byte string (a `…` would make the line and the turn's whole batch
 * two-byte strings, which the writer encodes more slowly).
 */
export function linkUrlJson(url: string, mount: string, token: string): string {
  // The lane's pattern admits no character JSON escapes: only the token's redaction needs care.
  if (token.length <= LONGEST_PARENT && TOKEN_PARENTS.has(token.toLowerCase()))
    return JSON.stringify(redactUrl(url)).replaceAll('…', '\\u2026');
  if (token.length <= SHOWN_TOKEN_CHARS) return `"${url}"`;
  return `"${mount}/${token.slice(0, SHOWN_TOKEN_CHARS)}\\u2026${url.slice(mount.length + 1 + token.length)}"`;
}

/** What the request serializer reads: a Fastify request, or the same three fields of one answered without it. */
type LoggedRequest = Pick<FastifyRequest, 'method' | 'url' | 'ip'> &
  Partial<Pick<FastifyRequest, 'clientIp' | 'server' | 'raw'>>;

/**
 * Replaces Fastify's request serializer; headers (API-Token, X-Signature) are never logged at all. The address is the
 * client's as TRUST_PROXY resolves it (docs/security.md), also for requests answered before the hook that sets it ran
 * (router errors). When the forwarded client entry is not an address there is no client address to log: the line
 * names the proxy that forwarded it as `forwardedBy` instead.
 */
function serializeRequest(request: LoggedRequest) {
  const line = { method: request.method, url: redactUrl(request.url) };
  if (request.clientIp) return { ...line, remoteAddress: request.clientIp };
  const resolve = request.server?.clientIpOf;
  if (!resolve || !request.raw) return { ...line, remoteAddress: request.ip };
  const address = resolve(request.raw);
  return address === null ? { ...line, forwardedBy: request.ip } : { ...line, remoteAddress: address };
}

/** Serializers for a logger built outside Fastify (the process's pino instance). */
export const safeSerializers = { req: serializeRequest };

/** The app's logger options with the safe request serializer; `false` stays off. */
export function withSafeLogging(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const base = logger === true ? {} : logger;
  return { ...base, serializers: { ...base.serializers, req: serializeRequest } };
}

/**
 * Fastify's request lines, one per request: nothing when it arrives, and when it is answered the method, redacted URL
 * and client address beside the status and the time taken (Fastify's default writes a line at each end).
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    } else if (!isAccounted(request.raw)) {
      // (A link answer the pipeline wrote has its line already: logAnswered.)
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, REQUEST_COMPLETED);
    }
  }
}

const REQUEST_COMPLETED = 'request completed';

/**
 * The completion line of a request Fastify's router refused before any route (the `frameworkErrors` option: bad
 * percent-encoding, an over-long path segment), for which Fastify writes none; written once the answer has gone out.
 */
export function logWhenSent(request: FastifyRequest, reply: FastifyReply): void {
  const started = performance.now();
  reply.raw.once('finish', () => {
    reply.log.info({ req: request, res: reply, responseTime: performance.now() - started }, REQUEST_COMPLETED);
  });
}

/** pino's value of the `info` level. */
const INFO = 30;

/** The parts of a pino logger the lane's line is built from (pino.symbols documents them for integrations). */
interface PinoInternals extends Pick<Logger, 'isLevelEnabled'> {
  [symbols.timeSym]: () => string;
  [symbols.chindingsSym]: string;
  [symbols.streamSym]: { write(line: string): unknown };
}

/**
 * The completion line of a link answer the link pipeline wrote (resolve/link-pipeline.ts): the line above, the same
 * fields in the same order (Fastify's request logger binds `reqId`, the `res` serializer reads `statusCode`), built
 * in one template string and handed to the logger's stream. pino's general path (serializers, one stringify per
 * field) took 1.7 µs a line against 0.55 µs for this one (bench/access-line.ts), and 8 % of the service's CPU under
 * load (docs/benchmarks.md).
 */
export function logAnswered(
  log: FastifyBaseLogger,
  reqId: string,
  /** `urlJson` from linkUrlJson. */
  req: { method: string; urlJson: string; ip: string },
  statusCode: number,
  responseTime: number,
  /** The line's time from logTime, for lines written together; read now when not given. */
  time?: string,
): void {
  const pino = log as unknown as PinoInternals;
  if (!logsAnswers(pino)) return;
  pino[symbols.streamSym].write(
    `{"level":${INFO}${time ?? pino[symbols.timeSym]()}${pino[symbols.chindingsSym]},"reqId":${jsonString(reqId)},` +
      `"req":{"method":${jsonString(req.method)},"url":${req.urlJson},"remoteAddress":${jsonString(req.ip)}},` +
      `"res":{"statusCode":${statusText(statusCode)}},` +
      `"responseTime":${milliseconds(responseTime)},"msg":"${REQUEST_COMPLETED}"}\n`,
  );
}

/** The time part of a completion line as the logger writes it now (one clock reading for a batch of lines). */
export function logTime(log: FastifyBaseLogger): string {
  const pino = log as unknown as PinoInternals;
  return logsAnswers(pino) ? pino[symbols.timeSym]() : '';
}

/** An app built without a logger has Fastify's silent stand-in, which has no level to ask. */
function logsAnswers(pino: PinoInternals): boolean {
  return typeof pino.isLevelEnabled === 'function' && pino.isLevelEnabled('info');
}

/**
 * The link's statuses as literals. The string V8 keeps for the number 200 can be a two-byte one (made from a two-byte
 * source elsewhere in the process), and one two-byte piece makes the whole line, and the turn's batch of lines, two-byte
 * strings that take twice the memory and a slower path to UTF-8.
 */
function statusText(statusCode: number): string {
  return statusCode === 200 ? '200' : statusCode === 304 ? '304' : String(statusCode);
}

/** Characters a JSON string holds as they are; request ids, methods and addresses are made of them. */
const PLAIN_JSON = /^[\w.:%@+/-]*$/;

/** `JSON.stringify` of a string, without its call for the plain ones (most of a line's cost was three of them). */
function jsonString(text: string): string {
  return PLAIN_JSON.test(text) ? `"${text}"` : JSON.stringify(text);
}

/** Milliseconds to the microsecond (`0.457`), written from integers: a double's shortest form is slow to find. */
export function milliseconds(value: number): string {
  const micros = Math.round(value * 1000);
  if (!(micros >= 0 && micros <= Number.MAX_SAFE_INTEGER)) return String(value);
  const fraction = micros % 1000;
  return `${(micros - fraction) / 1000}.${fraction < 10 ? '00' : fraction < 100 ? '0' : ''}${fraction}`;
}
