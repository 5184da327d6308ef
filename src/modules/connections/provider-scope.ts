// How the shared subscription routes act for a provider: authenticate it, then require the user's approval.
import type { FastifyRequest } from 'fastify';
import { errors } from '../../http/errors.js';
import type { Authenticator } from '../../http/plugins/auth.js';
import type { Scope } from '../subscriptions/scope.js';
import type { ConnectionsService } from './connections.service.js';

/**
 * The `user_id` path parameter. Scopes resolve in onRequest, before schema validation, so it is checked here the
 * way the schema would (an integer > 0) to answer 400 rather than look up a nonsense id.
 */
export function userIdParam(request: FastifyRequest): number {
  // A string in onRequest; already a number once schema validation has coerced it (e.g. in a handler).
  const raw = String((request.params as { user_id?: string | number }).user_id ?? '');
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isSafeInteger(value) || value < 1) {
    throw errors.validation('The request is invalid.', [{ path: 'params.user_id', message: 'must be an integer > 0' }]);
  }
  return value;
}

/** resolveScope of the /api/v1/providers/:user_id/subs mount. */
export function providerScope(auth: Authenticator, connections: ConnectionsService) {
  return async (request: FastifyRequest): Promise<Scope> => {
    const provider = await auth.provider(request);
    const userId = userIdParam(request);
    await connections.requireApproved(provider.providerHash, userId);
    return { userId, provider: { hash: provider.providerHash, name: provider.providerName } };
  };
}
