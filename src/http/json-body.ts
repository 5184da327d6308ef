// JSON request bodies: Fastify's own parser (prototype poisoning refused), except that an empty body sent as JSON is
// accepted on endpoints that take no body (approve, refresh, ...), as many HTTP clients send one.
import type { FastifyInstance } from 'fastify';

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
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.config.optionalBody && (request.body === undefined || request.body === null)) {
      request.body = {};
    }
  });
}
