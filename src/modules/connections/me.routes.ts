// User self-service (/api/v1/me): the caller's account and the provider connections they approve, reject or revoke.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Executor } from '../../db/executor.js';
import type { UserRow } from '../../db/types.js';
import { authenticateUser } from '../../http/plugins/auth.js';
import { errorResponses, NoContent } from '../../http/schemas.js';
import { defaultRouteKind } from '../../http/route-kind.js';
import type { ConnectionsService } from './connections.service.js';
import { ConnectionResponse, ConnectionsResponse, MeResponse, ProviderNameParams } from './connections.schemas.js';

export interface MeRoutesOptions {
  db: Executor;
  connections: ConnectionsService;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated user on /api/v1/me routes. */
    meAccount: UserRow | null;
  }
}

export const meRoutes: FastifyPluginAsync<MeRoutesOptions> = async (fastify, { db, connections }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  defaultRouteKind(app, 'user');
  app.decorateRequest('meAccount', null);
  app.addHook('onRequest', async (request) => {
    request.meAccount = await authenticateUser(db, request);
  });
  const userId = (request: FastifyRequest): number => (request.meAccount as UserRow).user_id;
  const tags = ['Me'];
  const security = [{ apiToken: [] }];
  const params = ProviderNameParams;

  app.get(
    '/',
    {
      schema: {
        tags,
        security,
        summary: 'Your account',
        description: 'The calling user.',
        response: { 200: MeResponse, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ user_id: userId(request), is_active: (request.meAccount as UserRow).is_active === 1 }),
  );

  app.get(
    '/providers',
    {
      schema: {
        tags,
        security,
        summary: 'Your provider connections',
        description: 'Pending and approved provider connections; revoked ones are not listed.',
        response: { 200: ConnectionsResponse, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ connections: await connections.list(userId(request)) }),
  );

  app.get(
    '/providers/:provider_name',
    {
      schema: {
        tags,
        security,
        summary: 'One provider connection',
        description: 'The connection with this provider in any status, revoked included; 404 when there is none.',
        params,
        response: { 200: ConnectionResponse, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => connections.view(userId(request), request.params.provider_name),
  );

  app.post(
    '/providers/:provider_name/approve',
    {
      schema: {
        tags,
        security,
        summary: 'Approve a provider',
        description:
          'Lets the provider manage subscriptions for you. Only a pending request can be approved (409 connection_not_pending), ' +
          'and only while you hold fewer than MAX_PROVIDERS_PER_USER approved providers (409 provider_limit_reached).',
        params,
        response: { 200: ConnectionResponse, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => connections.approve(userId(request), request.params.provider_name),
  );

  app.post(
    '/providers/:provider_name/reject',
    {
      schema: {
        tags,
        security,
        summary: 'Reject a provider request',
        description:
          'Rejects a pending request: the record is deleted (status null), or kept as revoked when the provider already ' +
          'created subscriptions for you. 409 connection_not_pending otherwise.',
        params,
        response: { 200: ConnectionResponse, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => connections.reject(userId(request), request.params.provider_name),
  );

  app.post(
    '/providers/:provider_name/revoke',
    {
      schema: {
        tags,
        security,
        summary: 'Revoke a provider',
        description:
          'Ends delegated management (pending or approved to revoked; repeating it is harmless). Subscriptions the provider ' +
          'created stay yours, their links keep working, and you can change them from now on.',
        params,
        response: { 204: NoContent, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await connections.revoke(userId(request), request.params.provider_name);
      return reply.status(204).send(null);
    },
  );
};
