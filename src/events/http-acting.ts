// Gives every route handler's async work the acting caller of its request, so events and audit entries name who did what.
import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { actingAs, type Acting } from './actor-context.js';
import type { Actor } from './event-types.js';

/** Install on the root before any route: wraps each route's handler once. */
export function installActingContext(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function (this: FastifyInstance, request, reply) {
      return actingAs(httpActing(request), () => handler.call(this, request, reply));
    };
  });
}

function httpActing(request: FastifyRequest): Acting {
  return { actor: () => actorOf(request), clientIp: request.clientIp || null, requestId: request.id };
}

/** Authentication may run inside the handler (provider mounts), so the caller is read when an event is written. */
function actorOf(request: FastifyRequest): Actor {
  const caller = request.caller;
  if (caller?.kind === 'user') return { kind: 'user', id: String(caller.userId) };
  if (caller?.kind === 'provider') return { kind: 'provider', id: caller.providerName };
  if (request.routeOptions.config.kind === 'admin') return { kind: 'admin', id: 'api' };
  return { kind: 'system', id: 'api' };
}
