// The provider API (/api/v1/providers/:user_id): ask a user for access, check its status, give it up.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { providerCaller } from '../../http/caller.js';
import { errorResponses } from '../../http/schemas.js';
import { providerOnlyRoutes } from '../../http/route-defaults.js';
import { deprecatedAliases } from '../../http/deprecated-aliases.js';
import { V2HUB_PATHS_DEPRECATED_AT, type ConnectionRoutesOptions } from './me.routes.js';
import {
  PROVIDER_REVOKED_DETAIL,
  ProviderConnectionCreateResponse,
  ProviderConnectionResponse,
  ProviderRevokeResponse,
  ProviderUserParams,
} from './connections.schemas.js';

export const providerRoutes: FastifyPluginAsync<ConnectionRoutesOptions> = async (fastify, { auth, connections }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  providerOnlyRoutes(app, auth, ['Providers']);
  deprecatedAliases(app, V2HUB_PATHS_DEPRECATED_AT);

  app.post(
    '/:user_id',
    {
      schema: {
        summary: 'Request access to a user',
        description:
          'Opens a pending connection request (re-opens a revoked one), creating the user account when it does not exist. ' +
          'Give the returned connection_link to the user, who approves with their own API token. 409 while a pending or approved connection exists.',
        params: ProviderUserParams,
        response: { 201: ProviderConnectionCreateResponse, ...errorResponses(400, 409) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await connections.request(providerCaller(request), request.params.user_id)),
  );

  app.get(
    '/:user_id',
    {
      schema: {
        summary: 'Connection status',
        description: 'The status of your connection with the user; 404 when there is no record.',
        params: ProviderUserParams,
        response: { 200: ProviderConnectionResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => connections.providerView(providerCaller(request).providerHash, request.params.user_id),
  );

  app.delete(
    '/:user_id',
    {
      config: { aliases: [{ method: 'POST', url: '/:user_id/revoke' }] },
      schema: {
        summary: 'Give up access to a user',
        description:
          'Revokes the connection from any status. The record is kept, so a later request can be approved again; ' +
          'subscriptions you created stay available to the user. 404 when there is no record.',
        params: ProviderUserParams,
        response: { 200: ProviderRevokeResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => ({
      ...(await connections.providerRevoke(providerCaller(request).providerHash, request.params.user_id)),
      detail: PROVIDER_REVOKED_DETAIL,
    }),
  );
};
