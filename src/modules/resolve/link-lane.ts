// Answers warm public-link requests straight from node:http, ahead of Fastify's request pipeline, through the link pipeline the Fastify route also calls; whatever it is not sure of goes on to Fastify.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { requestId } from '../../http/connections.js';
import { linkUrlJson } from '../../http/request-log.js';
import type { RenderCache } from './render-cache.js';
import { LINK_MOUNTS, LINK_ROUTES } from './public.routes.js';
import { rateLimitHeaders } from '../abuse/rate-limiter.js';
import type { LinkPipeline, LinkRequest, ServedChoice } from './link-pipeline.js';

export interface LinkLaneOptions {
  cache: RenderCache;
  pipeline: LinkPipeline;
  /** The client address, or null when a trusted proxy forwarded something that is not one. */
  clientIp: (raw: IncomingMessage) => string | null;
  stopping: () => boolean;
  /** Told of every request the lane answered. */
  answered: () => void;
  log: FastifyBaseLogger;
}

/** Answers a request, or calls `next` (Fastify) having written nothing. */
export type Lane = (raw: IncomingMessage, response: ServerResponse, next: () => void) => void;

/** The route patterns of each mount, by mount (made once: a pattern made per request costs a hash). */
const ROUTES = new Map<string, { bare: string; format: string }>(LINK_ROUTES.map((route) => [route.mount, route]));

const mounts = LINK_MOUNTS.map((mount) => mount.replaceAll('/', '\\/')).join('|');
/**
 * The shapes the lane takes: a mount, a token-shaped token, an optional plain format segment, an optional trailing
 * slash (the router ignores it) and at most a plain `format` query. Anything else (percent-encoding, other queries,
 * case variants) is left to the router and the schemas.
 */
const LINK_URL = new RegExp(
  `^(${mounts})\\/([A-Za-z0-9_-]{1,128})(?:\\/([A-Za-z0-9._-]{1,64}))?\\/?(?:\\?format=([A-Za-z0-9._-]{1,64}))?$`,
);

/**
 * Takes only a GET or HEAD without a body for a subscription whose resolution is cached, from an address that is
 * not banned, while the server is not stopping. It charges the public budget when one applies, then answers and
 * accounts through the pipeline. Refusals, misses, a compressed form not made yet and errors are all Fastify's; a
 * request charged here and then handed on is not charged again (PublicGate).
 */
export function linkLane(options: LinkLaneOptions): Lane {
  const { cache, pipeline, clientIp, stopping, answered, log } = options;

  /**
   * Queues the answer (written at the end of the turn; `next` if writing it then fails before anything went out);
   * false (nothing queued) when the cache no longer holds it or Fastify must answer.
   */
  const answer = (
    request: LinkRequest,
    response: ServerResponse,
    extra: readonly string[],
    next: () => void,
  ): boolean => {
    const resolved = cache.peek(request.token);
    if (!resolved) return false;
    let choice;
    try {
      choice = pipeline.choose(request);
    } catch {
      // An unknown format gets Fastify's answer, in the error envelope.
      return false;
    }
    if (choice.result === 'block') return false;
    const reply = pipeline.respond(request, resolved, choice as ServedChoice, extra);
    if (!reply) return false;
    pipeline.deliver(request, response, reply, (error) => failed(error, response, next));
    answered();
    return true;
  };

  /** Nothing may escape a request listener: before the answer is written Fastify takes over, after it the error is logged. */
  const attempt = (request: LinkRequest, response: ServerResponse, extra: readonly string[], next: () => void) => {
    try {
      if (!answer(request, response, extra, next)) next();
    } catch (error) {
      failed(error, response, next);
    }
  };
  const failed = (error: unknown, response: ServerResponse, next: () => void) => {
    if (!response.headersSent) return next();
    log.error({ err: error }, 'the link lane failed after writing an answer');
    if (!response.writableEnded) response.destroy();
  };

  const take = (raw: IncomingMessage, response: ServerResponse, next: () => void) => {
    const started = performance.now();
    if ((raw.method !== 'GET' && raw.method !== 'HEAD') || stopping()) return next();
    const url = raw.url ?? '';
    const match = LINK_URL.exec(url);
    if (!match || hasBody(raw)) return next();
    const [, mount, token, pathFormat, queryFormat] = match as unknown as [string, string, string, string?, string?];
    // The pattern matched one of the mounts.
    const routes = ROUTES.get(mount)!;
    const ip = clientIp(raw);
    const admission = ip === null ? 'refer' : pipeline.admission(ip);
    // A miss is resolved by Fastify's route, which charges the budget itself.
    const kept = admission === 'refer' ? undefined : cache.keptToken(token);
    if (kept === undefined) return next();
    const request: LinkRequest = {
      raw,
      token: kept,
      pathFormat,
      queryFormat,
      ip: ip!,
      id: requestId(raw),
      started,
      route: routes[pathFormat === undefined ? 'bare' : 'format'],
      urlJson: linkUrlJson(url, mount, token),
    };
    if (admission === 'free') return attempt(request, response, ['x-request-id', request.id], next);
    pipeline.charge(raw, request.ip).then(
      (verdict) => {
        // A refusal (429, and the strike toward a ban) is the hooks' to make, with this same verdict.
        if (verdict && !verdict.allowed) return next();
        const extra = ['x-request-id', request.id];
        if (verdict) for (const [name, value] of Object.entries(rateLimitHeaders(verdict))) extra.push(name, value);
        attempt(request, response, extra, next);
      },
      (error: unknown) => failed(error, response, next),
    );
  };

  return (raw, response, next) => {
    try {
      take(raw, response, next);
    } catch (error) {
      failed(error, response, next);
    }
  };
}

function hasBody(raw: IncomingMessage): boolean {
  const length = raw.headers['content-length'];
  return (length !== undefined && length !== '0') || raw.headers['transfer-encoding'] !== undefined;
}
