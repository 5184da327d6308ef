// Upstream subscription URLs are user-supplied, so they are fetched with hard limits on time, size and redirects, and never reach private addresses (docs/security.md, SSRF).
import type { LookupOptions } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import { parseUserinfo, type Userinfo } from '../../shared/userinfo.js';
import { normalizeIp } from '../../net/ip.js';
import { parseUrl, withoutFragment } from '../../net/url.js';
import { checkPublicHost, isForbiddenAddress, notPublicReason, type LookupFn } from '../../net/ssrf.js';
import type { FetchOptions } from './fetch-options.js';
import { LineParser, UpstreamUnparseable } from './line-parser.js';

export interface UpstreamOptions {
  timeoutMs: number; // whole fetch including redirects and body (FETCH_TIMEOUT_MS)
  maxBytes: number; // body cap (FETCH_MAX_BYTES)
  maxRedirects: number; // FETCH_MAX_REDIRECTS
  userAgent: string; // FETCH_USER_AGENT
  allowPrivate: boolean; // FETCH_ALLOW_PRIVATE
  /** Config lines kept from a body (MAX_RESOLVED_CONFIGS); parsing stops there. Unlimited by default. */
  maxLines?: number;
  /** Name resolution for both the SSRF check and the connection; the system resolver by default (tests inject one). */
  lookup?: LookupFn;
  /**
   * Tests only: literal IP hosts exempt from the SSRF rule. A test server can only listen on loopback, so this is
   * how a test serves an allowed first hop while every other hop (and every resolved name) still gets the rule.
   */
  trustedAddresses?: readonly string[];
  /** Told when the worker thread that parses large bodies fails (the body it had is unparseable). */
  onParserError?: (error: Error) => void;
  /** Tests only: the parser worker's module (test/support/failing-parse-worker.ts fails on purpose). */
  parserWorkerUrl?: URL;
}

/** Why a fetch failed, in a word (metrics); the error text says it for people. */
export type FetchFailure =
  'invalid_url' | 'blocked' | 'redirect' | 'http_status' | 'too_large' | 'timeout' | 'network' | 'unparseable';

/** The fetch error of a body refused before parsing or that the parser worker failed on (docs/api.md). */
export const UNPARSEABLE_ERROR = 'upstream_unparseable';

export type UpstreamResult =
  | { ok: true; lines: string[]; status?: number; finalUrl?: string; userinfo?: Userinfo }
  | { ok: false; error: string; failure?: FetchFailure };

export interface UpstreamClient {
  fetch(url: string, options?: FetchOptions): Promise<UpstreamResult>;
  close(): Promise<void>;
}

type Body = Dispatcher.ResponseData['body'];

interface Context {
  options: UpstreamOptions;
  /** A connection pool of the fetch's own, whose name lookups end with its deadline. */
  agentFor(signal: AbortSignal): Agent;
  parser: LineParser;
  checkTarget(url: URL, signal: AbortSignal): Promise<string | null>;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const DISCARD_LIMIT = 64 * 1024;

/** Raised from inside the connection's lookup, so it is recognisable after undici hands it back. */
class ForbiddenAddressError extends Error {}

const systemLookup: LookupFn = (hostname) => dnsLookup(hostname, { all: true });

export function createUpstreamClient(options: UpstreamOptions): UpstreamClient {
  const lookup = options.lookup ?? systemLookup;
  const agents = new Set<Agent>();
  // undici's connection knows no request, so a pool shared by fetches could not end a lookup at one fetch's deadline.
  const agentFor = (signal: AbortSignal) => {
    const agent = new Agent({
      connect: { timeout: options.timeoutMs, lookup: connectLookup(lookup, !options.allowPrivate, signal) },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    agents.add(agent);
    return agent;
  };
  const trusted = new Set((options.trustedAddresses ?? []).map((address) => normalizeIp(address) ?? address));
  const parser = new LineParser({
    maxBytes: options.maxBytes,
    ...(options.onParserError ? { onWorkerError: options.onParserError } : {}),
    ...(options.parserWorkerUrl ? { workerUrl: options.parserWorkerUrl } : {}),
  });
  const ctx: Context = {
    options,
    agentFor,
    parser,
    checkTarget: (url, signal) => checkTarget(url, options.allowPrivate, trusted, lookup, signal),
  };
  const release = (agent: Agent) => {
    agents.delete(agent);
    return agent.destroy().catch(() => undefined);
  };
  return {
    fetch: (url, fetchOptions) => fetchUpstream(ctx, url, release, fetchOptions),
    close: async () => {
      await Promise.all([...[...agents].map(release), parser.close()]);
    },
  };
}

/** Why this hop may not be fetched, or null. Resolved names are checked again when the socket connects. */
async function checkTarget(
  url: URL,
  allowPrivate: boolean,
  trusted: Set<string>,
  lookup: LookupFn,
  signal: AbortSignal,
): Promise<string | null> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `unsupported URL scheme "${url.protocol.slice(0, -1)}"`;
  if (url.username !== '' || url.password !== '') return 'URL must not contain credentials';
  if (allowPrivate || trusted.has(normalizeIp(url.hostname) ?? '')) return null;
  const check = await checkPublicHost(url.hostname, lookup, signal);
  return check.ok ? null : check.reason;
}

/**
 * The `lookup` handed to net/tls.connect: it refuses the connection when any answer is forbidden, so a name that
 * re-resolves to a private address after checkTarget (DNS rebinding) still cannot be reached. IP literals skip it.
 * It fails with the fetch's deadline: undici delivers an abort to a request only once its connection is made, and
 * its own connect timeout starts afresh on every hop.
 */
export function connectLookup(lookup: LookupFn, guard: boolean, signal: AbortSignal): LookupFunction {
  return (hostname: string, opts: LookupOptions, callback) => {
    untilAborted(lookup(hostname, signal), signal).then(
      (all) => {
        const answers = opts.family === 4 || opts.family === 6 ? all.filter((a) => a.family === opts.family) : all;
        const forbidden = guard ? answers.find(({ address }) => isForbiddenAddress(address)) : undefined;
        const first = answers[0];
        if (forbidden) {
          callback(new ForbiddenAddressError(notPublicReason(hostname)), '');
        } else if (!first) {
          callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');
        } else if (opts.all) {
          callback(null, answers);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}

async function fetchUpstream(
  ctx: Context,
  input: string,
  release: (agent: Agent) => Promise<void>,
  fetchOptions?: FetchOptions,
): Promise<UpstreamResult> {
  const signal = AbortSignal.timeout(ctx.options.timeoutMs);
  const agent = ctx.agentFor(signal);
  try {
    return await follow(ctx, agent, input, signal, fetchOptions);
  } catch (err) {
    return describeError(err, signal, ctx.options.timeoutMs);
  } finally {
    void release(agent);
  }
}

async function follow(
  ctx: Context,
  agent: Agent,
  input: string,
  signal: AbortSignal,
  fetchOptions?: FetchOptions,
): Promise<UpstreamResult> {
  const start = withoutFragment(parseUrl(input.trim()));
  if (start === null) return failure('URL is not valid', 'invalid_url');
  const problem = await untilAborted(ctx.checkTarget(start, signal), signal);
  if (problem !== null) return failure(problem, 'blocked');

  let url = start;

  for (let hop = 0; ; hop++) {
    const response = await request(url, {
      dispatcher: agent,
      method: 'GET',
      headers: requestHeaders(ctx.options.userAgent, fetchOptions, url.origin === start.origin),
      signal,
    });
    if (!REDIRECT_STATUSES.has(response.statusCode)) return readResponse(ctx, response, url);
    await discard(response.body);
    if (hop >= ctx.options.maxRedirects)
      return failure(`too many redirects (max ${ctx.options.maxRedirects})`, 'redirect');
    const location = firstHeader(response.headers.location);
    const next: URL | null = location === undefined ? null : withoutFragment(parseUrl(location, url));
    if (next === null) return failure(`HTTP ${response.statusCode} without a valid Location`, 'redirect');
    const refused = await untilAborted(ctx.checkTarget(next, signal), signal);
    if (refused !== null) return failure(`redirect refused: ${refused}`, 'blocked');
    url = next;
  }
}

/**
 * The user agent (the source's, else FETCH_USER_AGENT) goes on every hop; the source's other headers only to the
 * origin it named, since they may carry a credential the next host must not see. A `user-agent` among the headers
 * counts as the user agent when none is given.
 */
function requestHeaders(defaultAgent: string, options: FetchOptions | undefined, sameOrigin: boolean) {
  const { 'user-agent': agentHeader, ...others } = options?.headers ?? {};
  return {
    accept: '*/*',
    ...(sameOrigin ? others : {}),
    'user-agent': options?.userAgent ?? agentHeader ?? defaultAgent,
  };
}

/** DNS lookups count inside FETCH_TIMEOUT_MS: a lookup that outlives the signal is abandoned (its outcome ignored). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function readResponse(ctx: Context, response: Dispatcher.ResponseData, url: URL): Promise<UpstreamResult> {
  const { maxBytes } = ctx.options;
  const { statusCode, headers, body } = response;
  if (statusCode < 200 || statusCode > 299) {
    await discard(body);
    return failure(`HTTP ${statusCode}`, 'http_status');
  }
  const tooLarge = failure(`response larger than ${maxBytes} bytes`, 'too_large');
  if (Number(firstHeader(headers['content-length'])) > maxBytes) {
    body.destroy();
    return tooLarge;
  }
  const received = await readCapped(body, maxBytes);
  if (received === null) return tooLarge;
  const maxLines = ctx.options.maxLines ?? Number.POSITIVE_INFINITY;
  const lines = await ctx.parser.parseChunks(received.chunks, received.size, maxLines);
  return { ok: true, lines, status: statusCode, finalUrl: url.href, ...usageOf(headers) };
}

/** The parsed subscription-userinfo header, when the upstream sent a readable one (docs/api.md, Headers). */
function usageOf(headers: Dispatcher.ResponseData['headers']): { userinfo?: Userinfo } {
  const userinfo = parseUserinfo(firstHeader(headers['subscription-userinfo']));
  return userinfo ? { userinfo } : {};
}

/** The body's chunks, or null as soon as it passes maxBytes (leaving the loop destroys the stream). */
async function readCapped(body: Body, maxBytes: number): Promise<{ chunks: Buffer[]; size: number } | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) return null;
    chunks.push(buffer);
  }
  return { chunks, size };
}

/** Bodies we do not want are drained (small) or dropped, so the connection is released either way. */
async function discard(body: Body): Promise<void> {
  await body.dump({ limit: DISCARD_LIMIT }).catch(() => undefined);
}

function describeError(err: unknown, signal: AbortSignal, timeoutMs: number): UpstreamResult {
  if (err instanceof UpstreamUnparseable) return failure(UNPARSEABLE_ERROR, 'unparseable');
  if (signal.aborted || TIMEOUT_CODES.has(errorCode(err) ?? '')) {
    return failure(`timed out after ${timeoutMs} ms`, 'timeout');
  }
  for (let cause: unknown = err; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof ForbiddenAddressError) return failure(cause.message, 'blocked');
  }
  if (!(err instanceof Error)) return failure(String(err), 'network');
  // Happy-eyeballs failures are AggregateErrors with an empty message but a code.
  return failure(err.message || errorCode(err) || err.name, 'network');
}

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function failure(error: string, kind: FetchFailure): UpstreamResult {
  return { ok: false, error, failure: kind };
}
