// Times every answered request into the request histogram, labelled by the route pattern and never by the URL, at the cost of one observe.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { RouteKind } from '../../http/route-kind.js';
import { asArray } from '../../shared/arrays.js';
import { isAccounted } from '../../http/self-accounted.js';
import type { Metrics, RequestTimer } from './metrics.js';

/** The route label of a request no route matched (404, 405), whatever its path. */
export const UNMATCHED_ROUTE = 'unmatched';

type Timers = Map<string, Map<number, RequestTimer>>;

/** The histogram child of one method and status within one route, built on first use and kept. */
function timerFor(timers: Timers, metrics: Metrics, method: string, route: string, kind: string, status: number) {
  let byStatus = timers.get(method);
  if (!byStatus) timers.set(method, (byStatus = new Map()));
  let timer = byStatus.get(status);
  if (!timer) byStatus.set(status, (timer = metrics.requestTimer(method, route, kind, status)));
  return timer;
}

/** Observes one answered request of a route: its method, status and the seconds it took. */
export type RouteObserver = (method: string, status: number, seconds: number) => void;

/**
 * Install on the root before any route. Each route gets its own onResponse hook that knows its pattern and kind, so
 * a request costs two map lookups and one observe, with the time Fastify measures for the reply anyway; requests no
 * route matched are observed by one root hook under UNMATCHED_ROUTE. Returns each route's observer by method and
 * pattern, for requests answered outside Fastify's pipeline (the link lane).
 */
export function installRequestMetrics(
  app: FastifyInstance,
  metrics: Metrics,
): (method: string, url: string) => RouteObserver | undefined {
  const observers = new Map<string, RouteObserver>();
  app.addHook('onRoute', (route: RouteOptions) => {
    const timers: Timers = new Map();
    const observeRoute: RouteObserver = (method, status, seconds) => {
      // Read at the first answer: the plugins' defaults (route-kind.ts) set the kind after this hook has run.
      const kind: RouteKind | 'anonymous' = (route.config as { kind?: RouteKind } | undefined)?.kind ?? 'anonymous';
      timerFor(timers, metrics, method, route.url, kind, status).observe(seconds);
    };
    for (const method of asArray(route.method)) observers.set(`${method} ${route.url}`, observeRoute);
    // Link answers the pipeline wrote were observed by it (resolve/link-pipeline.ts).
    const observe = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      if (!isAccounted(request.raw)) observeRoute(request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    route.onResponse = [...asArray(route.onResponse), observe];
  });

  const unmatched: Timers = new Map();
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) {
      const timer = timerFor(unmatched, metrics, request.method, UNMATCHED_ROUTE, 'anonymous', reply.statusCode);
      timer.observe(reply.elapsedTime / 1000);
    }
    done();
  });
  return (method, url) => observers.get(`${method} ${url}`);
}
