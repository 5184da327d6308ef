// Admin user management: create, read, (de)activate, delete and re-issue tokens (DESIGN.md section 9).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { NoContent } from '../../http/schemas.js';
import type { UsersService } from '../users/users.service.js';
import {
  ADMIN_TAG,
  adminErrors,
  adminSecurity,
  CreatedUserResponse,
  CreateUserBody,
  UpdateUserBody,
  UserIdParams,
  UserResponse,
  UserTokenResponse,
} from './admin.schemas.js';

export function adminUserRoutes(users: UsersService): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const common = { tags: [ADMIN_TAG], security: adminSecurity };

    app.post(
      '/users',
      {
        schema: {
          ...common,
          summary: 'Create a user',
          description: 'Creates an active user with the given id and returns its API token (shown only here).',
          body: CreateUserBody,
          response: { 201: CreatedUserResponse, ...adminErrors(400, 409) },
        },
      },
      async (request, reply) => reply.status(201).send(await users.create(request.body.user_id)),
    );

    app.get(
      '/users/:user_id',
      {
        schema: {
          ...common,
          summary: 'Get a user',
          description: 'Returns the account without its token.',
          params: UserIdParams,
          response: { 200: UserResponse, ...adminErrors(400, 404) },
        },
      },
      async (request) => users.get(request.params.user_id),
    );

    app.patch(
      '/users/:user_id',
      {
        schema: {
          ...common,
          summary: 'Activate or deactivate a user',
          description:
            'Sets is_active. A disabled user gets 403 account_disabled on every call and its public links answer 404 at once.',
          params: UserIdParams,
          body: UpdateUserBody,
          response: { 200: UserResponse, ...adminErrors(400, 404) },
        },
      },
      async (request) => users.setActive(request.params.user_id, request.body.is_active),
    );

    app.delete(
      '/users/:user_id',
      {
        schema: {
          ...common,
          summary: 'Delete a user',
          description:
            'Deletes the user with their subscriptions, sources, provider connections and any provider they own ' +
            '(with the subscriptions it manages).',
          params: UserIdParams,
          response: { 204: NoContent, ...adminErrors(400, 404) },
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
          ...common,
          summary: "Re-issue a user's API token",
          description: 'Issues a new API token; the old one stops working immediately.',
          params: UserIdParams,
          response: { 200: UserTokenResponse, ...adminErrors(400, 404) },
        },
      },
      async (request) => users.refreshToken(request.params.user_id),
    );
  };
}
