// Every route says what kind of caller it serves, so bans, rate limits and statistics follow the matched route, never the raw URL.
import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { RequestKind } from '../db/column-values.js';

export type { RequestKind } from '../db/column-values.js';
/** Declared in route options (`config: { kind }`), usually through a plugin's `defaultRouteKind`. */
export type RouteKind = Exclude<RequestKind, 'anonymous'>;

declare module 'fastify' {
  interface FastifyContextConfig {
    kind?: RouteKind;
  }
}

/** Gives every route registered in this plugin scope (and its children) `kind`, unless a route declares its own. */
export function defaultRouteKind(app: FastifyInstance, kind: RouteKind): void {
  app.addHook('onRoute', (route) => {
    route.config = { kind, ...route.config };
  });
}

/**
 * The kind of the matched route. Fastify's 404 handler has no route, hence no kind: such a request is anonymous,
 * whatever its URL looks like.
 */
export function requestKind(request: FastifyRequest): RequestKind {
  return request.routeOptions.config.kind ?? 'anonymous';
}

/**
 * Refuses to start when a route declares no kind: such a route would silently be treated as anonymous. Install on
 * the root before any route; it checks the route options objects once every plugin has added its default.
 */
export function requireRouteKinds(app: FastifyInstance): void {
  const routes: Array<{ method: string | string[]; url: string; config?: { kind?: RouteKind } }> = [];
  app.addHook('onRoute', (route) => void routes.push(route));
  app.addHook('onReady', async () => {
    const missing = routes
      .filter((route) => !route.config?.kind)
      .map((route) => `${String(route.method)} ${route.url}`);
    if (missing.length > 0) throw new Error(`Routes without a kind: ${missing.join(', ')}`);
  });
}
