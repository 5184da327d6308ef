// Admin user management: create, read, (de)activate, delete and re-issue tokens (docs/admin-api.md, Endpoints).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorResponses, NoContent } from '../../http/schemas.js';
import type { UsersService } from '../users/users.service.js';
import {
  CreatedUserResponse,
  CreateUserBody,
  ListUsersQuery,
  UpdateUserBody,
  UserIdParams,
  UserPage,
  UserResponse,
  UserTokenResponse,
} from './admin.schemas.js';

export const adminUserRoutes: FastifyPluginAsync<{ users: UsersService }> = async (fastify, { users }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/users',
    {
      schema: {
        summary: 'Create a user',
        description: 'Creates an active user with the given id and returns its API token (shown only here).',
        body: CreateUserBody,
        response: { 201: CreatedUserResponse, ...errorResponses(400, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await users.create(request.body.user_id)),
  );

  app.get(
    '/users',
    {
      schema: {
        summary: 'List users',
        description:
          'Users newest first, each with its status, creation time and number of subscriptions; `search` keeps the ' +
          'ids starting with its digits, `status` the active or disabled ones. `next_cursor` (null on the last page) ' +
          'fetches the next page; a cursor that this endpoint did not return is 400 validation_failed.',
        querystring: ListUsersQuery,
        response: { 200: UserPage, ...errorResponses(400) },
      },
    },
    async (request) => users.list(request.query),
  );

  app.get(
    '/users/:user_id',
    {
      schema: {
        summary: 'Get a user',
        description: 'Returns the account without its token.',
        params: UserIdParams,
        response: { 200: UserResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => users.get(request.params.user_id),
  );

  app.patch(
    '/users/:user_id',
    {
      schema: {
        summary: 'Activate or deactivate a user',
        description:
          'Sets is_active. A disabled user gets 403 account_disabled on every call and its public links answer 404 at once.',
        params: UserIdParams,
        body: UpdateUserBody,
        response: { 200: UserResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => users.setActive(request.params.user_id, request.body.is_active),
  );

  app.delete(
    '/users/:user_id',
    {
      schema: {
        summary: 'Delete a user',
        description:
          'Deletes the user with their subscriptions, sources, provider connections and any provider they own ' +
          '(with the subscriptions it manages).',
        params: UserIdParams,
        response: { 204: NoContent, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      await users.delete(request.params.user_id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/users/:user_id/refresh-token',
    {
      schema: {
        summary: "Re-issue a user's API token",
        description: 'Issues a new API token; the old one stops working immediately.',
        params: UserIdParams,
        response: { 200: UserTokenResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => users.refreshToken(request.params.user_id),
  );
};
