// Answers warm public-link requests straight from node:http, ahead of Fastify's request pipeline, with the same checks and accounting; whatever it is not sure of goes on to Fastify.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { requestId } from '../../http/connections.js';
import { linkUrlJson, logAnswered } from '../../http/request-log.js';
import type { RequestKind } from '../../http/route-kind.js';
import type { Format } from '../../formats/formats.js';
import type { RouteObserver } from '../metrics/request-metrics.js';
import type { FormatSettings } from '../formats/format-settings.js';
import type { RenderCache } from './render-cache.js';
import type { RequestHistory } from '../history/request-history.js';
import { chooseFor, linkReply } from './link-answer.js';
import type { LinkChoice } from '../formats/format-rules.js';
import { LINK_MOUNTS } from './public.routes.js';
import type { PublicGate } from '../abuse/public-gate.js';
import { rateLimitHeaders } from '../abuse/rate-limiter.js';

export interface LinkLaneOptions {
  cache: RenderCache;
  formats: FormatSettings;
  publicBaseUrl: string;
  /** The client address, or null when a trusted proxy forwarded something that is not one. */
  clientIp: (raw: IncomingMessage) => string | null;
  /** Bans and the public budget, charged once whichever path answers. */
  gate: PublicGate;
  stopping: () => boolean;
  count: (kind: RequestKind) => void;
  history: RequestHistory;
  /** The request metrics of a route, by method and pattern. */
  routeObserver: (method: string, url: string) => RouteObserver | undefined;
  /** Told of every request the lane answered. */
  answered: () => void;
  log: FastifyBaseLogger;
}

/** Answers a request, or calls `next` (Fastify) having written nothing. */
export type Lane = (raw: IncomingMessage, response: ServerResponse, next: () => void) => void;

const mounts = LINK_MOUNTS.map((mount) => mount.replaceAll('/', '\\/')).join('|');
/**
 * The shapes the lane takes: a mount, a token-shaped token, an optional plain format segment, an optional trailing
 * slash (the router ignores it) and at most a plain `format` query. Anything else (percent-encoding, other queries,
 * case variants) is left to the router and the schemas.
 */
const LINK_URL = new RegExp(
  `^(${mounts})\\/([A-Za-z0-9_-]{1,128})(?:\\/([A-Za-z0-9._-]{1,64}))?\\/?(?:\\?format=([A-Za-z0-9._-]{1,64}))?$`,
);

interface LaneRequest {
  raw: IncomingMessage;
  response: ServerResponse;
  started: number;
  /** The client's address, as TRUST_PROXY resolves it: the one the budget was charged to, and the one logged. */
  ip: string;
  mount: string;
  token: string;
  pathFormat: string | undefined;
  queryFormat: string | undefined;
}

/**
 * Takes only a GET without a body for a subscription whose resolution is cached, from an address that is not banned,
 * while the server is not stopping. It charges the public budget when one applies, then writes what the Fastify
 * route would (same headers, 304 on a matching If-None-Match), counts the request, observes its metrics under the
 * same route pattern and logs the same completion line. Refusals, misses and errors are all Fastify's; a request
 * charged here and then handed on is not charged again (PublicGate).
 */
export function linkLane(options: LinkLaneOptions): Lane {
  const { cache, formats, publicBaseUrl, clientIp, gate, stopping, count, history, routeObserver, answered, log } =
    options;
  const observers = new Map<string, RouteObserver | undefined>();
  const observerOf = (pattern: string) => {
    if (!observers.has(pattern)) observers.set(pattern, routeObserver('GET', pattern));
    return observers.get(pattern);
  };

  /** Writes the answer; false (nothing written) when the cache no longer holds it or Fastify must answer. */
  const answer = (request: LaneRequest, extraHeaders: Record<string, string> | undefined): boolean => {
    const { raw, response, token, pathFormat, queryFormat } = request;
    const resolved = cache.peek(token);
    if (!resolved) return false;
    /** Names and values in one flat list, which node:http takes as it is (no object to build and walk). */
    let headers: string[];
    let id: string;
    let body: Buffer | undefined;
    let served!: LinkChoice & { result: Format | 'page' };
    let servers = 0;
    try {
      const choice = chooseFor(formats, { pathFormat, queryFormat, headers: raw.headers });
      if (choice.result === 'block') return false;
      served = choice as typeof choice & { result: Format | 'page' };
      const link = linkReply(resolved, served, formats, token, publicBaseUrl, raw.headers['if-none-match']);
      body = link.body;
      servers = link.served;
      id = requestId(raw);
      headers = ['x-request-id', id];
      if (extraHeaders) for (const [name, value] of Object.entries(extraHeaders)) headers.push(name, value);
      for (const part of headerList(link.headers)) headers.push(part);
      if (body) headers.push('content-length', String(body.length));
      // A shutdown that began while the budget was charged: answer, then close, as Fastify's path does.
      if (stopping()) headers.push('connection', 'close');
    } catch {
      // An unknown format and anything unexpected get Fastify's answer, in the error envelope.
      return false;
    }
    const status = body ? 200 : 304;
    response.writeHead(status, headers);
    response.end(body);

    answered();
    count('public');
    history.record({
      token,
      format: served.variant ?? served.result,
      rule: served.rule,
      status,
      userAgent: raw.headers['user-agent'],
      ip: request.ip,
      servers,
    });
    const seconds = (performance.now() - request.started) / 1000;
    observerOf(pathFormat === undefined ? `${request.mount}/:token` : `${request.mount}/:token/:format`)?.(
      'GET',
      status,
      seconds,
    );
    const logged = {
      method: 'GET',
      urlJson: linkUrlJson(raw.url!, request.mount, token),
      ip: request.ip,
    };
    logAnswered(log, id, logged, status, seconds * 1000);
    return true;
  };

  /** Nothing may escape a request listener: before the answer is written Fastify takes over, after it the error is logged. */
  const attempt = (request: LaneRequest, extraHeaders: Record<string, string> | undefined, next: () => void) => {
    try {
      if (!answer(request, extraHeaders)) next();
    } catch (error) {
      failed(error, request.response, next);
    }
  };
  const failed = (error: unknown, response: ServerResponse, next: () => void) => {
    if (!response.headersSent) return next();
    log.error({ err: error }, 'the link lane failed after writing an answer');
    if (!response.writableEnded) response.destroy();
  };

  const take = (raw: IncomingMessage, response: ServerResponse, next: () => void) => {
    const started = performance.now();
    if (raw.method !== 'GET' || stopping()) return next();
    const match = LINK_URL.exec(raw.url ?? '');
    if (!match || hasBody(raw)) return next();
    const [, mount, token, pathFormat, queryFormat] = match as unknown as [string, string, string, string?, string?];
    const ip = clientIp(raw);
    const admission = ip === null ? 'refer' : gate.admission(ip);
    // A miss is resolved by Fastify's route, which charges the budget itself.
    if (admission === 'refer' || !cache.has(token)) return next();
    const request: LaneRequest = { raw, response, started, ip: ip!, mount, token, pathFormat, queryFormat };
    if (admission === 'free') return attempt(request, undefined, next);
    gate.charge(raw, request.ip).then(
      (verdict) => {
        // A refusal (429, and the strike toward a ban) is the hooks' to make, with this same verdict.
        if (verdict && !verdict.allowed) return next();
        attempt(request, verdict ? rateLimitHeaders(verdict) : undefined, next);
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

/** An answer's headers as one flat list of names and values, made once per cached answer (answerLink shares them). */
const headerLists = new WeakMap<Readonly<Record<string, string>>, readonly string[]>();
function headerList(headers: Readonly<Record<string, string>>): readonly string[] {
  let list = headerLists.get(headers);
  if (!list) headerLists.set(headers, (list = Object.entries(headers).flat()));
  return list;
}

function hasBody(raw: IncomingMessage): boolean {
  const length = raw.headers['content-length'];
  return (length !== undefined && length !== '0') || raw.headers['transfer-encoding'] !== undefined;
}
