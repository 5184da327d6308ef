// The provider API (/api/v1/providers/:user_id): ask a user for access, check its status, give it up.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Executor } from '../../db/executor.js';
import type { ProviderRow } from '../../db/types.js';
import { authenticateProvider } from '../../http/plugins/auth.js';
import { errorResponses } from '../../http/schemas.js';
import { defaultRouteKind } from '../../http/route-kind.js';
import type { ConnectionsService } from './connections.service.js';
import { ProviderConnectionCreateResponse, ProviderConnectionResponse, UserIdParams } from './connections.schemas.js';

export interface ProviderRoutesOptions {
  db: Executor;
  connections: ConnectionsService;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated provider on /api/v1/providers/:user_id routes. */
    providerAccount: ProviderRow | null;
  }
}

export const providerRoutes: FastifyPluginAsync<ProviderRoutesOptions> = async (fastify, { db, connections }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  defaultRouteKind(app, 'provider');
  app.decorateRequest('providerAccount', null);
  app.addHook('onRequest', async (request) => {
    request.providerAccount = await authenticateProvider(db, request);
  });
  const caller = (request: FastifyRequest): ProviderRow => request.providerAccount as ProviderRow;
  const tags = ['Providers'];
  const security = [{ apiToken: [] }];

  app.post(
    '/:user_id',
    {
      schema: {
        tags,
        security,
        summary: 'Request access to a user',
        description:
          'Opens a pending connection request (re-opens a revoked one), creating the user account when it does not exist. ' +
          'Give the returned connection_link to the user, who approves with their own API token. 409 while a pending or approved connection exists.',
        params: UserIdParams,
        response: { 201: ProviderConnectionCreateResponse, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await connections.request(caller(request), request.params.user_id)),
  );

  app.get(
    '/:user_id',
    {
      schema: {
        tags,
        security,
        summary: 'Connection status',
        description: 'The status of your connection with the user; 404 when there is no record.',
        params: UserIdParams,
        response: { 200: ProviderConnectionResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => connections.providerView(caller(request).provider_hash, request.params.user_id),
  );

  app.delete(
    '/:user_id',
    {
      schema: {
        tags,
        security,
        summary: 'Give up access to a user',
        description:
          'Revokes the connection from any status. The record is kept, so a later request can be approved again; ' +
          'subscriptions you created stay available to the user. 404 when there is no record.',
        params: UserIdParams,
        response: { 200: ProviderConnectionResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => connections.providerRevoke(caller(request).provider_hash, request.params.user_id),
  );
};
