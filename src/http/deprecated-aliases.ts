// Older paths that clients of the original API still call, served by the very route that replaced them: a route names its aliases, this registers them.
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods, RouteOptions } from 'fastify';
import { asArray } from '../shared/arrays.js';

/** Another method and path (relative to the plugin's prefix, with the same path parameters) for a route. */
export interface RouteAlias {
  method: HTTPMethods;
  url: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Deprecated method and path pairs that answer exactly as this route does. */
    aliases?: RouteAlias[];
  }
}

/**
 * Registers, for every route of this plugin scope that lists `config.aliases`, each alias with the route's own
 * schema (marked `deprecated` in the OpenAPI document), config, hooks and handler. Every answer of an alias, errors
 * included, carries the RFC 9745 header `Deprecation: @<deprecatedAt>` and `Link: <path>; rel="successor-version"`
 * naming the route's own path for this request. Install after `routeDefaults`, so aliases inherit its additions.
 */
export function deprecatedAliases(app: FastifyInstance, deprecatedAt: number): void {
  app.addHook('onRoute', function (this: FastifyInstance, route) {
    const aliases = route.config?.aliases;
    // Fastify's own HEAD copy of a GET route shares its config; the GET alias gets its HEAD copy the same way.
    if (!aliases || route.method === 'HEAD') return;
    const successor = route.url;
    const method = Array.isArray(route.method) ? route.method.join(', ') : route.method;
    const markDeprecated = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      reply
        .header('Deprecation', `@${deprecatedAt}`)
        .header('Link', `<${concretePath(successor, request.params)}>; rel="successor-version"`);
      return payload;
    };
    const { aliases: _own, ...config } = route.config ?? {};
    const schema = route.schema
      ? {
          ...route.schema,
          deprecated: true,
          ...(route.schema.summary ? { summary: `${route.schema.summary} (deprecated path)` } : {}),
          description:
            `Deprecated alias of \`${method} ${openApiPath(successor)}\`, kept for clients of the original v2hub API; it answers exactly as that route. ${route.schema.description ?? ''}`.trim(),
        }
      : undefined;
    for (const alias of aliases) {
      this.route({
        ...(route as RouteOptions),
        method: alias.method,
        url: alias.url,
        config,
        schema,
        onSend: [...asArray(route.onSend), markDeprecated],
      } as RouteOptions);
    }
  });
}

/** `/a/:name/b` with this request's parameters filled in (percent-encoded). */
function concretePath(template: string, params: unknown): string {
  const values = (params ?? {}) as Record<string, unknown>;
  return template.replace(/:([A-Za-z0-9_]+)/g, (whole, name: string) =>
    values[name] === undefined ? whole : encodeURIComponent(String(values[name])),
  );
}

const openApiPath = (template: string) => template.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
