// User self-service (/api/v1/me): the caller's account and the provider connections they approve, reject or revoke.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Authenticator } from '../../http/plugins/auth.js';
import { userCaller } from '../../http/caller.js';
import { errorResponses, NoContent } from '../../http/schemas.js';
import { userOnlyRoutes } from '../../http/route-defaults.js';
import { deprecatedAliases } from '../../http/deprecated-aliases.js';
import type { ConnectionsService } from './connections.service.js';
import { ConnectionResponse, ConnectionsResponse, MeResponse, ProviderNameParams } from './connections.schemas.js';

/** The options of both connection route plugins, /api/v1/me and /api/v1/providers. */
export interface ConnectionRoutesOptions {
  auth: Authenticator;
  connections: ConnectionsService;
}

/**
 * 2026-01-01T00:00:00Z, the `Deprecation` date of the original v2hub paths (`/me/connections...`,
 * `POST /providers/{user_id}/revoke`) that subweave serves as aliases of its own (docs/migrating-from-v2hub.md).
 */
export const V2HUB_PATHS_DEPRECATED_AT = 1_767_225_600;

export const meRoutes: FastifyPluginAsync<ConnectionRoutesOptions> = async (fastify, { auth, connections }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  userOnlyRoutes(app, auth, ['Me']);
  deprecatedAliases(app, V2HUB_PATHS_DEPRECATED_AT);
  const userId = (request: FastifyRequest): number => userCaller(request).userId;
  const params = ProviderNameParams;

  app.get(
    '/',
    {
      schema: {
        summary: 'Your account',
        description: 'The calling user.',
        response: { 200: MeResponse },
      },
    },
    async (request) => ({ user_id: userId(request), is_active: true }),
  );

  app.get(
    '/providers',
    {
      config: { aliases: [{ method: 'GET', url: '/connections' }] },
      schema: {
        summary: 'Your provider connections',
        description: 'Pending and approved provider connections; revoked ones are not listed.',
        response: { 200: ConnectionsResponse },
      },
    },
    async (request) => ({ connections: await connections.list(userId(request)) }),
  );

  app.get(
    '/providers/:provider_name',
    {
      config: { aliases: [{ method: 'GET', url: '/connections/:provider_name' }] },
      schema: {
        summary: 'One provider connection',
        description: 'The connection with this provider in any status, revoked included; 404 when there is none.',
        params,
        response: { 200: ConnectionResponse, ...errorResponses(404) },
      },
    },
    async (request) => connections.view(userId(request), request.params.provider_name),
  );

  app.post(
    '/providers/:provider_name/approve',
    {
      config: { aliases: [{ method: 'POST', url: '/connections/:provider_name/approve' }] },
      schema: {
        summary: 'Approve a provider',
        description:
          'Lets the provider manage subscriptions for you. Only a pending request can be approved (409 connection_not_pending), ' +
          'and only while you hold fewer than MAX_PROVIDERS_PER_USER approved providers (409 provider_limit_reached).',
        params,
        response: { 200: ConnectionResponse, ...errorResponses(404, 409) },
      },
    },
    async (request) => connections.approve(userId(request), request.params.provider_name),
  );

  app.post(
    '/providers/:provider_name/reject',
    {
      config: { aliases: [{ method: 'POST', url: '/connections/:provider_name/reject' }] },
      schema: {
        summary: 'Reject a provider request',
        description:
          'Rejects a pending request: the record is deleted (status null), or kept as revoked when the provider already ' +
          'created subscriptions for you. 409 connection_not_pending otherwise.',
        params,
        response: { 200: ConnectionResponse, ...errorResponses(404, 409) },
      },
    },
    async (request) => connections.reject(userId(request), request.params.provider_name),
  );

  app.post(
    '/providers/:provider_name/revoke',
    {
      config: { aliases: [{ method: 'DELETE', url: '/connections/:provider_name' }] },
      schema: {
        summary: 'Revoke a provider',
        description:
          'Ends delegated management (pending or approved to revoked; repeating it is harmless). Subscriptions the provider ' +
          'created stay yours, their links keep working, and you can change them from now on.',
        params,
        response: { 204: NoContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await connections.revoke(userId(request), request.params.provider_name);
      return reply.status(204).send(null);
    },
  );
};
