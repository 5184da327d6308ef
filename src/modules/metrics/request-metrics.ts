// Times every answered request into the request histogram, labelled by the route pattern and never by the URL, at the cost of one observe.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { RouteKind } from '../../http/route-kind.js';
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

/**
 * Install on the root before any route. Each route gets its own onResponse hook that knows its pattern and kind, so
 * a request costs two map lookups and one observe, with the time Fastify measures for the reply anyway; requests no
 * route matched are observed by one root hook under UNMATCHED_ROUTE.
 */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const timers: Timers = new Map();
    // Read at the first answer: the plugins' defaults (route-kind.ts) set the kind after this hook has run.
    const observe = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      const kind: RouteKind | 'anonymous' = (route.config as { kind?: RouteKind } | undefined)?.kind ?? 'anonymous';
      timerFor(timers, metrics, request.method, route.url, kind, reply.statusCode).observe(reply.elapsedTime / 1000);
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
}

function asArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
