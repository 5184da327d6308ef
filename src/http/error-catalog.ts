// The one catalog of error codes: each code's HTTP status, the AppError that carries it, and a factory per code.

/** Every code the API answers with and its status; docs/api.md lists each, and a test holds the two together. */
export const ERROR_CATALOG = {
  validation_failed: 400,
  invalid_json: 400,
  bad_request: 400,
  invalid_forwarded_for: 400,
  unexpected_body: 400,
  invalid_source: 400,
  invalid_url: 400,
  circular_reference: 400,
  nesting_too_deep: 400,
  no_update_fields: 400,
  comment_not_applicable: 400,
  unknown_format: 400,
  invalid_pattern: 400,
  invalid_transform: 400,
  invalid_template: 400,
  missing_token: 401,
  invalid_token: 401,
  missing_signature: 401,
  invalid_signature: 401,
  signature_expired: 401,
  replayed_request: 401,
  invalid_invite: 401,
  invalid_sign_in_code: 401,
  account_disabled: 403,
  ip_not_allowed: 403,
  bad_origin: 403,
  ip_banned: 403,
  forbidden: 403,
  managed_by_provider: 403,
  client_blocked: 403,
  connection_not_approved: 403,
  subscription_limit_reached: 403,
  subscription_not_found: 404,
  source_not_found: 404,
  config_not_found: 404,
  user_not_found: 404,
  provider_not_found: 404,
  connection_not_found: 404,
  webhook_not_found: 404,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  name_exists: 409,
  user_exists: 409,
  provider_exists: 409,
  connection_exists: 409,
  connection_not_pending: 409,
  provider_limit_reached: 409,
  webhook_limit_reached: 409,
  too_many_sources: 413,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  admin_disabled: 503,
  database_unavailable: 503,
  shutting_down: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOG;

const DATABASE_RETRY_AFTER_SECONDS = 5;

export interface Issue {
  path: string;
  message: string;
}

export type ErrorDetails = Record<string, unknown> | null;

/** A failure with a stable code; its HTTP status comes from the catalog. */
export class AppError extends Error {
  readonly statusCode: number;
  readonly headers: Record<string, string>;

  /** `retryAfter` (seconds), when given, is sent as the `Retry-After` header and, on a 429, as `retry_after` in the body. */
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = null,
    headers: Record<string, string> = {},
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = ERROR_CATALOG[code];
    this.headers = retryAfter === null ? headers : { ...headers, 'retry-after': String(retryAfter) };
  }
}

/** The body of every error answer: `{error, message, details}`, and on a 429 also `retry_after` (DESIGN.md section 17). */
export function errorBody(error: AppError): Record<string, unknown> {
  return {
    error: error.code,
    message: error.message,
    details: error.details,
    ...(error.statusCode === 429 ? { retry_after: error.retryAfter } : {}),
  };
}

export const errors = {
  validation: (message: string, issues: Issue[]) => new AppError('validation_failed', message, { issues }),
  invalidSource: (message: string, details: ErrorDetails) => new AppError('invalid_source', message, details),
  invalidUrl: (message: string, details: ErrorDetails) => new AppError('invalid_url', message, details),
  circularReference: (chain: string[]) =>
    new AppError('circular_reference', 'The reference would make a subscription include itself.', { chain }),
  nestingTooDeep: (depth: number, max: number) =>
    new AppError('nesting_too_deep', `The reference would nest ${depth} levels deep; at most ${max} allowed.`, {
      depth,
      max_depth: max,
    }),
  noUpdateFields: (fields: string[]) =>
    new AppError('no_update_fields', `Provide at least one of: ${fields.join(', ')}.`, { fields }),
  /** `index`: the item's position when the comment came with a source in a list. */
  commentNotApplicable: (sourceType: string, index?: number) =>
    new AppError('comment_not_applicable', `Comments apply to config sources only, not ${sourceType}.`, {
      source_type: sourceType,
      ...(index === undefined ? {} : { index }),
    }),
  unknownFormat: (name: string, formats: string[]) =>
    new AppError('unknown_format', `Unknown format '${name}'.`, { format: name, formats }),
  /** A transform operator that cannot run; `index`: its position in the chain (null: the chain itself). */
  invalidTransform: (index: number | null, message: string) => new AppError('invalid_transform', message, { index }),
  /** A pattern RE2 will not run (docs/api.md: patterns use RE2 syntax, matched in linear time). */
  invalidPattern: (index: number, id: string, value: string, reason: string) =>
    new AppError(
      'invalid_pattern',
      `The pattern of rule '${id}' cannot be used: ${reason} (patterns use RE2 syntax).`,
      {
        index,
        id,
        value,
        reason,
      },
    ),
  invalidTemplate: (format: string, reason: string) =>
    new AppError('invalid_template', `The ${format} template cannot be used: ${reason}; nothing was changed.`, {
      format,
      reason,
    }),
  clientBlocked: (rule: string) =>
    new AppError('client_blocked', 'This client may not read the subscription.', { rule }, { 'subweave-rule': rule }),
  missingToken: () => new AppError('missing_token', 'The API-Token header is required.'),
  invalidToken: () => new AppError('invalid_token', 'The API token is not valid for this endpoint.'),
  /** A session cookie that names no live session (signed out, expired, or ended by a token refresh). */
  invalidSession: () => new AppError('invalid_token', 'The session has ended; sign in again.'),
  invalidSignInCode: () =>
    new AppError('invalid_sign_in_code', 'The sign-in link is unknown, expired or already used; ask for a new one.'),
  badOrigin: () =>
    new AppError(
      'bad_origin',
      'A request signed in by the session cookie that changes something must carry the Origin of this service.',
    ),
  accountDisabled: () => new AppError('account_disabled', 'This account is disabled.'),
  /** A provider acting for a user whose account is disabled. */
  userAccountDisabled: (userId: number) =>
    new AppError('account_disabled', 'The account of this user is disabled.', { user_id: userId }),
  forbidden: (message = 'You do not have access to this resource.') => new AppError('forbidden', message),
  subscriptionLimitReached: (max: number) =>
    new AppError('subscription_limit_reached', `The limit of ${max} subscriptions is reached.`, { max }),
  subscriptionNotFound: () => new AppError('subscription_not_found', 'Subscription not found.'),
  sourceNotFound: (unknownIds: string[]) =>
    new AppError('source_not_found', 'Some source ids do not belong to this subscription.', {
      unknown_ids: unknownIds,
    }),
  configNotFound: (configId: string) =>
    new AppError('config_not_found', 'No source with this config_id in the subscription.', {
      config_id: configId,
    }),
  userNotFound: (message = 'User not found.') => new AppError('user_not_found', message),
  nameExists: (name: string) => new AppError('name_exists', 'A subscription with this name already exists.', { name }),
  userExists: () => new AppError('user_exists', 'A user with this id already exists.'),
  providerNotFound: () => new AppError('provider_not_found', 'Provider not found.'),
  providerExists: (field: 'provider_name' | 'owner_id') =>
    new AppError(
      field === 'provider_name' ? 'name_exists' : 'provider_exists',
      field === 'provider_name' ? 'A provider with this name already exists.' : 'This user already owns a provider.',
      { field },
    ),
  connectionNotFound: () => new AppError('connection_not_found', 'No connection between this user and provider.'),
  connectionExists: (status: string) =>
    new AppError('connection_exists', `A ${status} connection already exists.`, { status }),
  connectionNotPending: (status: string) =>
    new AppError('connection_not_pending', `The connection is ${status}, not pending.`, { status }),
  providerLimitReached: (max: number) =>
    new AppError('provider_limit_reached', `The limit of ${max} approved providers is reached.`, { max }),
  connectionNotApproved: () =>
    new AppError('connection_not_approved', 'The user has not approved a connection with this provider.'),
  managedByProvider: (providerName: string | null) =>
    new AppError('managed_by_provider', 'This subscription is managed by a provider you approved.', {
      provider_name: providerName,
    }),
  invalidInvite: () => new AppError('invalid_invite', 'The invite is invalid or expired.'),
  webhookNotFound: (message = 'Webhook endpoint not found.') => new AppError('webhook_not_found', message),
  webhookLimitReached: (max: number) =>
    new AppError('webhook_limit_reached', `The limit of ${max} webhook endpoints is reached.`, { max }),
  notFound: (message = 'No such resource.') => new AppError('not_found', message),
  invalidForwardedFor: () =>
    new AppError('invalid_forwarded_for', 'X-Forwarded-For does not name the client with an IP address.'),
  unexpectedBody: () =>
    new AppError('unexpected_body', 'This endpoint takes no request body (an empty body or {} is accepted).'),
  badRequest: (message = 'The request is not valid HTTP.') => new AppError('bad_request', message),
  headersTooLarge: () => new AppError('headers_too_large', 'The request headers are too large.'),
  requestTimeout: () => new AppError('request_timeout', 'The request did not arrive in time.'),
  databaseUnavailable: () =>
    new AppError('database_unavailable', 'The database is unreachable; retry shortly.', null, {
      'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
    }),
  shuttingDown: () =>
    new AppError('shutting_down', 'The server is shutting down; retry on another instance.', null, {
      'Retry-After': '1',
      Connection: 'close',
    }),
  tooManySources: (max: number, wouldHave: number) =>
    new AppError('too_many_sources', `A subscription holds at most ${max} sources.`, {
      max,
      would_have: wouldHave,
    }),
  adminDisabled: () => new AppError('admin_disabled', 'The admin API is disabled: ADMIN_SECRET is not set.'),
  ipNotAllowed: (ip: string, what = 'the admin API') =>
    new AppError('ip_not_allowed', `Your address may not call ${what}.`, { ip }),
  missingSignature: () =>
    new AppError('missing_signature', 'Sign admin requests with the X-Timestamp and X-Signature headers.'),
  signatureExpired: (message = 'X-Timestamp is more than 60 seconds away from the server clock.') =>
    new AppError('signature_expired', message),
  invalidSignature: () => new AppError('invalid_signature', 'The request signature does not match.'),
  replayedRequest: () => new AppError('replayed_request', 'This signed request was already accepted once.'),
  invalidJson: (message = 'The request body is not valid JSON.') => new AppError('invalid_json', message),
  ipBanned: (bannedUntil: string, retryAfterSeconds: number) =>
    new AppError(
      'ip_banned',
      'Your address is banned.',
      { banned_until: bannedUntil },
      {
        'retry-after': String(retryAfterSeconds),
      },
    ),
  rateLimited: (limit: number, retryAfterSeconds: number, headers: Record<string, string>) =>
    new AppError(
      'rate_limited',
      `Too many requests: the limit is ${limit} per minute.`,
      {
        limit,
        retry_after: retryAfterSeconds,
      },
      headers,
      retryAfterSeconds,
    ),
  methodNotAllowed: (method: string, allowed: string[]) =>
    new AppError(
      'method_not_allowed',
      `Method ${method} is not allowed here.`,
      { allowed },
      { Allow: allowed.join(', ') },
    ),
  unsupportedMediaType: () => new AppError('unsupported_media_type', 'Send the request body as application/json.'),
  payloadTooLarge: () => new AppError('payload_too_large', 'The request body exceeds 1 MiB.'),
  internalError: () => new AppError('internal_error', 'An unexpected error occurred.'),
};
