// Enforces bans and rate limits by the kind of the matched route: public, page, user, provider and unmatched (anonymous) requests; admin and infra are never touched.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callerKey } from '../../http/caller.js';
import { errors } from '../../http/errors.js';
import { credentialDigest, presentsCredential } from '../../http/plugins/auth.js';
import { requestKind, type RequestKind } from '../../http/route-kind.js';
import { parseIpRange } from '../../net/ip.js';
import type { AbuseControls } from './abuse.service.js';
import { rateLimitHeaders, safely, type LimitName, type RateLimiter } from './rate-limiter.js';
import { clientGroupOf, type PublicGate } from './public-gate.js';
import { actingAs, systemActing } from '../../events/actor-context.js';

export interface AbuseHookOptions {
  controls: AbuseControls;
  limiter: RateLimiter;
  /** Public requests the link lane charged already: their verdict is used instead of a second charge. */
  gate: PublicGate;
  defaultBanSeconds: number;
  /** Told of refusals and automatic bans (metrics); only refusals reach it, never an admitted request. */
  observer?: AbuseObserver;
}

export interface AbuseObserver {
  rateLimited(limit: LimitName): void;
  autoBanned(): void;
  banRefused(): void;
}

interface RequestState {
  kind: RequestKind;
  /** Whether this request already spent anonymous budget (so its 401 is not counted twice). */
  anonCounted: boolean;
}

/**
 * Must be installed on the root instance before any route plugin: root onRequest hooks then run before the
 * route plugins' own onRequest authentication, so bans and the anonymous budget are checked before it.
 */
export function installAbuseHooks(
  app: FastifyInstance,
  { controls, limiter, gate, defaultBanSeconds, observer }: AbuseHookOptions,
): void {
  const states = new WeakMap<FastifyRequest, RequestState>();
  const guarded = (request: FastifyRequest) => states.get(request);

  /** Spends (or with `peek`, checks) a budget; a refusal is a 429 that also counts toward an automatic ban. */
  async function limit(request: FastifyRequest, reply: FastifyReply, name: LimitName, key: string, peek = false) {
    const charged = name === 'public' ? gate.takeCharge(request.raw) : undefined;
    const verdict =
      charged !== undefined
        ? charged
        : await safely(request.log, () => (peek ? limiter.peek(name, key) : limiter.hit(name, key)));
    if (!verdict) return;
    if (!peek || !verdict.allowed) reply.headers(rateLimitHeaders(verdict));
    if (verdict.allowed) return;
    observer?.rateLimited(name);
    // Strikes and the automatic ban cover the client's group: its IPv4 address, or its IPv6 /64.
    const group = groupOf(request);
    const range = parseIpRange(group);
    if (range && (await safely(request.log, () => limiter.strike(group)))) {
      const ban = () => controls.ban(range, defaultBanSeconds, 'rate_limit');
      await actingAs(systemActing('abuse'), ban).then(
        () => {
          observer?.autoBanned();
          request.log.warn({ ip: group }, 'address banned automatically after repeated rate-limit rejections');
        },
        (error: unknown) => request.log.error({ err: error, ip: group }, 'could not ban an address automatically'),
      );
    }
    throw errors.rateLimited(verdict.limit, verdict.resetSeconds, rateLimitHeaders(verdict));
  }

  /**
   * The ban check and the first budget charge of a request of this kind. Synchronous (no promise) unless a budget
   * is enabled for it: the public link is the hottest path of the service.
   */
  function admit(request: FastifyRequest, reply: FastifyReply, kind: RequestKind): Promise<void> | undefined {
    if (kind === 'admin' || kind === 'infra') return undefined;
    const ip = request.clientIp;
    if (controls.view.isWhitelisted(ip)) return undefined;
    const until = controls.view.bannedUntil(ip);
    if (until !== null) {
      observer?.banRefused();
      const bannedUntil = new Date(until).toISOString();
      throw errors.ipBanned(bannedUntil, Math.max(1, Math.ceil((until - Date.now()) / 1000)));
    }
    if (kind === 'public' || kind === 'page') {
      return limiter.enabled('public') ? limit(request, reply, 'public', groupOf(request)) : undefined;
    }
    if (kind === 'anonymous')
      return limiter.enabled('anon') ? limit(request, reply, 'anon', groupOf(request)) : undefined;
    // Only user and provider requests are looked at again (preValidation, onSend).
    const state: RequestState = { kind, anonCounted: false };
    states.set(request, state);
    // A request without a credential (API token, session cookie, sign-in body) spends anonymous budget now; one
    // with a credential is refused once that budget is used up (so guessing stops), and spends it only on a 401.
    state.anonCounted = !presentsCredential(request);
    if (!limiter.enabled('anon')) return undefined;
    return limit(request, reply, 'anon', groupOf(request), !state.anonCounted);
  }

  const settle = (pending: Promise<void> | undefined, done: (error?: Error) => void) => {
    if (pending) pending.then(() => done(), done);
    else done();
  };
  app.addHook('onRequest', (request, reply, done) => {
    let pending: Promise<void> | undefined;
    try {
      pending = admit(request, reply, requestKind(request));
    } catch (error) {
      return done(error as Error);
    }
    settle(pending, done);
  });
  // A path the router cannot even decode skips every hook; it is still an anonymous request.
  app.decorate('guardUnrouted', async (request: FastifyRequest, reply: FastifyReply) => {
    request.server.resolveClientIp(request);
    await admit(request, reply, 'anonymous');
  });

  // preValidation on the root runs after every onRequest hook, so route plugins have authenticated by now.
  app.addHook('preValidation', (request, reply, done) => {
    const state = guarded(request);
    if (!state || !isApi(state.kind) || !limiter.enabled('api')) return done();
    const key = credentialKey(request);
    settle(key ? limit(request, reply, 'api', key) : undefined, done);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const state = guarded(request);
    if (!state || !isApi(state.kind) || state.anonCounted || reply.statusCode !== 401) return done(null, payload);
    state.anonCounted = true;
    safely(request.log, () => limiter.hit('anon', groupOf(request))).then(
      (verdict) => {
        if (verdict) reply.headers(rateLimitHeaders(verdict));
        done(null, payload);
      },
      (error: unknown) => done(error as Error),
    );
  });
}

/** User and provider calls spend the per-credential budget, and the anonymous one when they fail to authenticate. */
const isApi = (kind: RequestKind) => kind === 'user' || kind === 'provider';

/**
 * The authenticated credential (`user:<id>`, `provider:<hash>`). If a route authenticates later than its
 * onRequest hooks, the token's (or session cookie's) hash stands in for it: the same caller gets the same budget.
 */
function credentialKey(request: FastifyRequest): string | null {
  return request.caller ? callerKey(request.caller) : credentialDigest(request);
}

const groupOf = (request: FastifyRequest) => clientGroupOf(request.raw.socket, request.clientIp);
