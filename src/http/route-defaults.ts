// One call per routes plugin gives its routes their kind, OpenAPI tags and security, and the error answers every one of them can give.
import type { FastifyInstance } from 'fastify';
import type { Authenticator } from './plugins/auth.js';
import { errorResponses } from './schemas.js';
import { defaultRouteKind, type RouteKind } from './route-kind.js';

export interface RouteDefaults {
  kind: RouteKind;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  /** Error statuses every route of the plugin can answer; a route lists only its own on top. */
  errors?: number[];
}

/** The security requirement of provider routes. */
export const API_TOKEN_SECURITY = [{ apiToken: [] }];

/** User routes: the API token, or the browser session cookie (docs/security.md, "Browser sessions"). */
export const USER_SECURITY: Array<Record<string, string[]>> = [{ apiToken: [] }, { sessionCookie: [] }];

/** What any user or provider route can answer: 401 no or unknown token, 403 account disabled, 429 rate limited. */
export const API_TOKEN_ERRORS = [401, 403, 429];

/** Every route of this plugin scope is a provider's, called with its API token: authenticated before anything else. */
export function providerOnlyRoutes(app: FastifyInstance, auth: Authenticator, tags: string[]): void {
  routeDefaults(app, { kind: 'provider', tags, security: API_TOKEN_SECURITY, errors: API_TOKEN_ERRORS });
  app.addHook('onRequest', async (request) => void (await auth.provider(request)));
}

/** Every route of this plugin scope is a user's (API token or session cookie): authenticated before anything else. */
export function userOnlyRoutes(app: FastifyInstance, auth: Authenticator, tags: string[]): void {
  routeDefaults(app, { kind: 'user', tags, security: USER_SECURITY, errors: API_TOKEN_ERRORS });
  app.addHook('onRequest', async (request) => void (await auth.user(request)));
}

/** Applies to every route registered in this plugin scope (and its children); what a route declares itself wins. */
export function routeDefaults(app: FastifyInstance, { kind, tags, security, errors = [] }: RouteDefaults): void {
  defaultRouteKind(app, kind);
  app.addHook('onRoute', (route) => {
    if (!route.schema || route.schema.hide) return;
    const schema = route.schema as Record<string, unknown> & { response?: Record<number, unknown> };
    route.schema = {
      ...(tags ? { tags } : {}),
      ...(security ? { security } : {}),
      ...schema,
      ...(errors.length > 0 || schema.response
        ? { response: { ...errorResponses(...errors), ...schema.response } }
        : {}),
    };
  });
}
