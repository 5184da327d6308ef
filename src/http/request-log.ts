// What a request looks like in the logs: never an API token, an admin signature, an invite or a whole subscription token.
import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';

/** The segment after one of these (case-insensitive, after percent-decoding) is a subscription token. */
const TOKEN_PARENTS = new Set(['sub', 'subs']);
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

/** What the request serializer reads: a Fastify request, or the same three fields of one answered without it. */
type LoggedRequest = Pick<FastifyRequest, 'method' | 'url' | 'ip'>;

/** Replaces Fastify's request serializer; headers (API-Token, X-Signature) are never logged at all. */
function serializeRequest(request: LoggedRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    remoteAddress: request.ip,
  };
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
    } else {
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, REQUEST_COMPLETED);
    }
  }
}

const REQUEST_COMPLETED = 'request completed';

/**
 * The completion line of a request answered outside Fastify's pipeline (the link lane), field for field the line
 * above: Fastify's request logger binds `reqId`, and the `res` serializer reads `statusCode`.
 */
export function logAnswered(
  log: FastifyBaseLogger,
  reqId: string,
  req: LoggedRequest,
  statusCode: number,
  responseTime: number,
): void {
  log.info({ reqId, req, res: { statusCode }, responseTime }, REQUEST_COMPLETED);
}
