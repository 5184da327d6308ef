// JSON request bodies: Fastify's own parser (prototype poisoning refused), except that an empty body sent as JSON is
// accepted on endpoints that take no body (approve, refresh, ...), as many HTTP clients send one.
import type { FastifyInstance } from 'fastify';

export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && !request.routeOptions.schema?.body) {
      done(null, undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
}
