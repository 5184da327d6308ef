// Admin handling of provider connections: the invite-based authorize call and the user's approve/reject decisions, through the connections service.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses, OneOf, PLAIN_TEXT_PATTERN } from '../../http/schemas.js';
import { ConnectionResponse, ProviderNameParams } from '../connections/connections.schemas.js';
import type { ConnectionsService } from '../connections/connections.service.js';
import { CONNECTION_STATUSES } from '../connections/transitions.js';
import type { UsersService } from '../users/users.service.js';
import { UserId, UserIdParams } from './admin.schemas.js';

const AuthorizeParams = Type.Object({
  provider_name: Type.String({ description: 'Name of the provider that issued the invite.' }),
  user_id: UserId,
});

const AuthorizeBody = Type.Object(
  {
    invite: Type.String({
      minLength: 1,
      pattern: PLAIN_TEXT_PATTERN,
      description:
        'The `{invite}` value of the connection link the provider API returned for this user (valid 7 days).',
    }),
  },
  { description: 'The signed invite.' },
);

const AuthorizeResponse = Type.Object(
  {
    user_id: Type.Integer({ description: 'The user.' }),
    provider_name: Type.String({ description: 'The provider.' }),
    status: OneOf(CONNECTION_STATUSES, {
      description: '`pending` for a new request; otherwise the unchanged status of the existing connection.',
    }),
  },
  { description: 'The connection after processing the invite.' },
);

const UserConnectionParams = Type.Object({
  user_id: UserId,
  provider_name: ProviderNameParams.properties.provider_name,
});

const AllConnectionsResponse = Type.Object(
  {
    connections: Type.Array(ConnectionResponse, {
      description: 'Every connection of the user, revoked ones included, oldest first.',
    }),
  },
  { description: "All of the user's provider connections." },
);

export const adminConnectionRoutes: FastifyPluginAsync<{
  connections: ConnectionsService;
  users: UsersService;
}> = async (fastify, { connections, users }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/providers/:provider_name/authorize/:user_id',
    {
      schema: {
        summary: 'Process a signed connection invite',
        description:
          'With no connection for the pair, a valid unexpired invite for this user and provider opens a pending ' +
          'request (creating the user when needed). An existing connection is left unchanged and its status returned. ' +
          'Unknown provider: 404 provider_not_found; bad or expired invite: 401 invalid_invite.',
        params: AuthorizeParams,
        body: AuthorizeBody,
        response: { 200: AuthorizeResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => connections.authorize(request.params.provider_name, request.params.user_id, request.body.invite),
  );

  app.get(
    '/users/:user_id/providers',
    {
      schema: {
        summary: "List a user's connections",
        description: 'Every connection of the user in any status, revoked included. Unknown user: 404 user_not_found.',
        params: UserIdParams,
        response: { 200: AllConnectionsResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      await users.get(request.params.user_id);
      return { connections: await connections.list(request.params.user_id, { includeRevoked: true }) };
    },
  );

  app.get(
    '/users/:user_id/providers/:provider_name',
    {
      schema: {
        summary: 'Get one connection',
        description:
          'The connection between the user and the provider in any status; 404 connection_not_found when none.',
        params: UserConnectionParams,
        response: { 200: ConnectionResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => connections.view(request.params.user_id, request.params.provider_name),
  );

  app.post(
    '/users/:user_id/providers/:provider_name/approve',
    {
      schema: {
        summary: 'Approve a pending connection for the user',
        description:
          'Same rules as the user approving: pending -> approved; 409 connection_not_pending or ' +
          'provider_limit_reached (MAX_PROVIDERS_PER_USER); 404 connection_not_found.',
        params: UserConnectionParams,
        response: { 200: ConnectionResponse, ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => connections.approve(request.params.user_id, request.params.provider_name),
  );

  app.post(
    '/users/:user_id/providers/:provider_name/reject',
    {
      schema: {
        summary: 'Reject a pending connection for the user',
        description:
          'Same rules as the user rejecting: the record is deleted (status null) or, when the provider already created ' +
          'subscriptions for the user, kept as revoked. 409 connection_not_pending; 404 connection_not_found.',
        params: UserConnectionParams,
        response: { 200: ConnectionResponse, ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => connections.reject(request.params.user_id, request.params.provider_name),
  );
};
