// The one place where failures become HTTP responses: AppError factories and the handlers that emit the error envelope.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The 404/405 answer for a path no route matches. */
    answerNotFound(request: FastifyRequest, reply: FastifyReply): void;
    /** Bans and the anonymous budget for requests the router refused before any hook (set by the abuse controls). */
    guardUnrouted?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

const DATABASE_RETRY_AFTER_SECONDS = 5;
/** One log line per this window while the database is unreachable, instead of one (with a stack) per request. */
const OUTAGE_LOG_EVERY_MS = 10_000;

export type ErrorDetails = Record<string, unknown> | null;

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetails = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const errors = {
  validation: (message: string, issues: Issue[]) =>
    new AppError(400, 'validation_failed', message, { issues }),
  invalidSource: (message: string, details: ErrorDetails) => new AppError(400, 'invalid_source', message, details),
  invalidUrl: (message: string, details: ErrorDetails) => new AppError(400, 'invalid_url', message, details),
  circularReference: (chain: string[]) =>
    new AppError(400, 'circular_reference', 'The reference would make a subscription include itself.', { chain }),
  nestingTooDeep: (depth: number, max: number) =>
    new AppError(400, 'nesting_too_deep', `The reference would nest ${depth} levels deep; at most ${max} allowed.`, {
      depth,
      max_depth: max,
    }),
  noUpdateFields: (fields: string[]) =>
    new AppError(400, 'no_update_fields', `Provide at least one of: ${fields.join(', ')}.`, { fields }),
  commentNotApplicable: (sourceType: string) =>
    new AppError(400, 'comment_not_applicable', `Comments apply to config sources only, not ${sourceType}.`, {
      source_type: sourceType,
    }),
  missingToken: () => new AppError(401, 'missing_token', 'The API-Token header is required.'),
  invalidToken: () => new AppError(401, 'invalid_token', 'The API token is not valid for this endpoint.'),
  accountDisabled: () => new AppError(403, 'account_disabled', 'This account is disabled.'),
  /** A provider acting for a user whose account is disabled. */
  userAccountDisabled: (userId: number) =>
    new AppError(403, 'account_disabled', 'The account of this user is disabled.', { user_id: userId }),
  forbidden: (message = 'You do not have access to this resource.') => new AppError(403, 'forbidden', message),
  subscriptionLimitReached: (max: number) =>
    new AppError(403, 'subscription_limit_reached', `The limit of ${max} subscriptions is reached.`, { max }),
  subscriptionNotFound: () => new AppError(404, 'subscription_not_found', 'Subscription not found.'),
  sourceNotFound: (unknownIds: string[]) =>
    new AppError(404, 'source_not_found', 'Some source ids do not belong to this subscription.', {
      unknown_ids: unknownIds,
    }),
  configNotFound: (configId: string) =>
    new AppError(404, 'config_not_found', 'No source with this config_id in the subscription.', {
      config_id: configId,
    }),
  userNotFound: () => new AppError(404, 'user_not_found', 'User not found.'),
  nameExists: (name: string) =>
    new AppError(409, 'name_exists', 'A subscription with this name already exists.', { name }),
  userExists: () => new AppError(409, 'user_exists', 'A user with this id already exists.'),
  providerNotFound: () => new AppError(404, 'provider_not_found', 'Provider not found.'),
  providerExists: (field: 'provider_name' | 'owner_id') =>
    new AppError(
      409,
      field === 'provider_name' ? 'name_exists' : 'provider_exists',
      field === 'provider_name' ? 'A provider with this name already exists.' : 'This user already owns a provider.',
      { field },
    ),
  connectionNotFound: () => new AppError(404, 'connection_not_found', 'No connection between this user and provider.'),
  connectionExists: (status: string) =>
    new AppError(409, 'connection_exists', `A ${status} connection already exists.`, { status }),
  connectionNotPending: (status: string) =>
    new AppError(409, 'connection_not_pending', `The connection is ${status}, not pending.`, { status }),
  providerLimitReached: (max: number) =>
    new AppError(409, 'provider_limit_reached', `The limit of ${max} approved providers is reached.`, { max }),
  connectionNotApproved: () =>
    new AppError(403, 'connection_not_approved', 'The user has not approved a connection with this provider.'),
  managedByProvider: (providerName: string | null) =>
    new AppError(403, 'managed_by_provider', 'This subscription is managed by a provider you approved.', {
      provider_name: providerName,
    }),
  invalidInvite: () => new AppError(401, 'invalid_invite', 'The invite is invalid or expired.'),
  notFound: (message = 'No such resource.') => new AppError(404, 'not_found', message),
  invalidForwardedFor: () =>
    new AppError(400, 'invalid_forwarded_for', 'X-Forwarded-For does not name the client with an IP address.'),
  unexpectedBody: () =>
    new AppError(400, 'unexpected_body', 'This endpoint takes no request body (an empty body or {} is accepted).'),
  badRequest: (message = 'The request is not valid HTTP.') => new AppError(400, 'bad_request', message),
  headersTooLarge: () => new AppError(431, 'headers_too_large', 'The request headers are too large.'),
  requestTimeout: () => new AppError(408, 'request_timeout', 'The request did not arrive in time.'),
  databaseUnavailable: () =>
    new AppError(503, 'database_unavailable', 'The database is unreachable; retry shortly.', null, {
      'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
    }),
  shuttingDown: () =>
    new AppError(503, 'shutting_down', 'The server is shutting down; retry on another instance.', null, {
      'Retry-After': '1',
      Connection: 'close',
    }),
  tooManySources: (max: number, wouldHave: number) =>
    new AppError(413, 'too_many_sources', `A subscription holds at most ${max} sources.`, {
      max,
      would_have: wouldHave,
    }),
};

export interface Issue {
  path: string;
  message: string;
}

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
      void send(reply, new AppError(405, 'method_not_allowed', `Method ${request.method} is not allowed here.`, {
        allowed,
      }), { Allow: allowed.join(', ') });
      return;
    }
    void send(reply, new AppError(404, 'not_found', `No route ${request.method} ${path}.`));
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
      ? new AppError(404, 'not_found', 'No such resource: a path segment is too long.')
      : error.code === 'FST_ERR_BAD_URL'
        ? new AppError(400, 'invalid_request', 'The request path is not valid (bad percent-encoding).')
        : toAppError(error);
  // No hook runs for these requests, so the request id header and the abuse checks happen here.
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
  return reply
    .status(error.statusCode)
    .headers(headers)
    .type('application/json; charset=utf-8')
    .send({ error: error.code, message: error.message, details: error.details });
}

const frameworkCodes: Record<string, [number, string, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type', 'Send the request body as application/json.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'payload_too_large', 'The request body exceeds 1 MiB.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'invalid_json', 'The body is empty but Content-Type is application/json.'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'invalid_json', 'The request body is not valid JSON.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'invalid_request', 'Content-Length does not match the body.'],
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
  if (known) return new AppError(known[0], known[1], known[2]);
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return new AppError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    return new AppError(status, 'bad_request', error.message || 'The request is invalid.');
  }
  return new AppError(500, 'internal_error', 'An unexpected error occurred.');
}

function issuePath(context: string | undefined, instancePath: string, params: Record<string, unknown>): string {
  const parts = instancePath.split('/').filter(Boolean);
  const missing = params['missingProperty'] ?? params['additionalProperty'];
  if (typeof missing === 'string') parts.push(missing);
  return [context ?? 'body', ...parts].join('.');
}
