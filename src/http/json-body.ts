// JSON request bodies: Fastify's own parser (prototype poisoning refused), except that an empty body sent as JSON is
// accepted on endpoints that take no body (approve, refresh, ...), as many HTTP clients send one.
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { asArray } from '../shared/arrays.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's body is optional: no body, an empty one or `null` is validated as `{}` (e.g. refresh options). */
    optionalBody?: boolean;
  }
}

export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && (!request.routeOptions.schema?.body || request.routeOptions.config.optionalBody)) {
      done(null, undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
  // Only routes with an optional body get the hook, so no other request pays for it.
  app.addHook('onRoute', (route) => {
    if (!route.config?.optionalBody) return;
    const own = route.preValidation;
    route.preValidation = [...asArray(own), emptyBodyAsObject];
  });
}

function emptyBodyAsObject(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (request.body === undefined || request.body === null) request.body = {};
  done();
}
