// The one place where failures become HTTP responses: AppError factories and the handlers that emit the error envelope.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors.js';
import { AppError, errorBody, errors } from './error-catalog.js';
import { logWhenSent } from './request-log.js';

export {
  AppError,
  errorBody,
  errors,
  ERROR_CATALOG,
  type ErrorCode,
  type ErrorDetails,
  type Issue,
} from './error-catalog.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The 404/405 answer for a path no route matches. */
    answerNotFound(request: FastifyRequest, reply: FastifyReply): void;
    /** Bans and the anonymous budget for requests the router refused before any hook (set by the abuse controls). */
    guardUnrouted?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/** One log line per this window while the database is unreachable, instead of one (with a stack) per request. */
const OUTAGE_LOG_EVERY_MS = 10_000;

/** Installs the error and not-found handlers so every non-2xx answer is `{error, message, details}`. */
export function installErrorHandling(app: FastifyInstance): void {
  // JSON is the only request body type: without this, Fastify's built-in text/plain parser would hand the
  // handler a string (400 validation_failed) instead of answering 415.
  app.removeContentTypeParser('text/plain');

  const routes: Array<{ method: string; pattern: RegExp }> = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const pattern = new RegExp(`^${route.url.replace(/:[^/]+/g, '[^/]+').replace(/\*/g, '.*')}/?$`);
    for (const method of methods) routes.push({ method: method.toUpperCase(), pattern });
  });

  const notFound = (request: FastifyRequest, reply: FastifyReply): void => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
    if (allowed.length > 0) {
      const error = errors.methodNotAllowed(request.method, allowed);
      void send(reply, error, error.headers);
      return;
    }
    void send(reply, errors.notFound(`No route ${request.method} ${path}.`));
  };
  app.setNotFoundHandler(notFound);
  // Scopes with their own guards (the admin API) install it again so their hooks also run for unknown paths.
  app.decorate('answerNotFound', notFound);

  let outageLoggedAt = 0;
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    const appError = toAppError(error);
    if (appError.code === 'database_unavailable') {
      if (Date.now() - outageLoggedAt > OUTAGE_LOG_EVERY_MS) {
        outageLoggedAt = Date.now();
        request.log.warn({ cause: error.message }, 'database unavailable: answering 503 database_unavailable');
      }
    } else if (appError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    void send(reply, appError, appError.headers);
  });
}

/**
 * Fastify's `frameworkErrors` option: router failures that happen before any route or hook (bad percent-encoding,
 * an over-long path parameter) would otherwise answer with Fastify's own body instead of the envelope.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const appError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? errors.notFound('No such resource: a path segment is too long.')
      : error.code === 'FST_ERR_BAD_URL'
        ? errors.badRequest('The request path is not valid (bad percent-encoding).')
        : toAppError(error);
  // No hook runs for these requests, so the request id header, the abuse checks and the access line happen here.
  logWhenSent(request, reply);
  const headers = { 'x-request-id': request.id };
  const guard = request.server.guardUnrouted;
  (guard ? guard(request, reply) : Promise.resolve()).then(
    () => void send(reply, appError, headers),
    (refusal: Error) => {
      const refused = toAppError(refusal);
      void send(reply, refused, { ...headers, ...refused.headers });
    },
  );
}

function send(reply: FastifyReply, error: AppError, headers: Record<string, string> = {}): FastifyReply {
  return reply.status(error.statusCode).headers(headers).type('application/json; charset=utf-8').send(errorBody(error));
}

const frameworkCodes: Record<string, () => AppError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: errors.unsupportedMediaType,
  FST_ERR_CTP_BODY_TOO_LARGE: errors.payloadTooLarge,
  FST_ERR_CTP_EMPTY_JSON_BODY: () => errors.invalidJson('The body is empty but Content-Type is application/json.'),
  FST_ERR_CTP_INVALID_JSON_BODY: () => errors.invalidJson(),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => errors.badRequest('Content-Length does not match the body.'),
};

function toAppError(error: FastifyError | AppError | Error): AppError {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error)) return errors.databaseUnavailable();
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const issues = fastifyError.validation.map((v) => ({
      path: issuePath(fastifyError.validationContext, v.instancePath, v.params),
      message: v.message ?? 'is invalid',
    }));
    return errors.validation('The request is invalid.', issues);
  }
  const known = fastifyError.code ? frameworkCodes[fastifyError.code] : undefined;
  if (known) return known();
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return errors.invalidJson();
  }
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) return errors.badRequest(error.message || 'The request is invalid.');
  return errors.internalError();
}

function issuePath(context: string | undefined, instancePath: string, params: Record<string, unknown>): string {
  const parts = instancePath.split('/').filter(Boolean);
  const missing = params['missingProperty'] ?? params['additionalProperty'];
  if (typeof missing === 'string') parts.push(missing);
  return [context ?? 'body', ...parts].join('.');
}
