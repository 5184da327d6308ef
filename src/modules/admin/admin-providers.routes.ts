// Admin provider management (docs/admin-api.md, Endpoints), delegating every rule to the providers service.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../../http/errors.js';
import { errorResponses, NoContent, PLAIN_TEXT_PATTERN, UserIdField } from '../../http/schemas.js';
import {
  ProviderName,
  ProviderResponse,
  ProviderUrl,
  ProviderWithTokenResponse,
} from '../providers/providers.schemas.js';
import type { ProvidersService } from '../providers/providers.service.js';
import type { UsersService } from '../users/users.service.js';

const CreateProviderBody = Type.Object(
  {
    owner_hash: Type.String({
      pattern: PLAIN_TEXT_PATTERN,
      description: 'user_hash of the user who owns the provider (one provider per user).',
    }),
    provider_name: ProviderName,
    provider_url: ProviderUrl,
  },
  { description: 'The provider to create.' },
);

const UpdateProviderBody = Type.Object(
  {
    is_active: Type.Optional(
      Type.Boolean({ description: 'false disables the provider: its token gets 403 account_disabled.' }),
    ),
    provider_url: Type.Optional(ProviderUrl),
    provider_name: Type.Optional(ProviderName),
  },
  { description: 'At least one of is_active, provider_url, provider_name.' },
);

const HashParams = Type.Object({ provider_hash: Type.String({ description: 'Provider id (UUID).' }) });
const NameParams = Type.Object({ provider_name: Type.String({ description: 'Provider name.' }) });
const OwnerParams = Type.Object({
  owner_id: UserIdField('user_id of the owning user.'),
});

const ProviderList = Type.Array(ProviderResponse, { description: 'Every provider, oldest first, without tokens.' });

export const adminProviderRoutes: FastifyPluginAsync<{ providers: ProvidersService; users: UsersService }> = async (
  fastify,
  { providers, users },
) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/providers',
    {
      schema: {
        summary: 'Create a provider',
        description:
          'Creates an active provider owned by the user with `owner_hash` and returns its API token (shown only here). ' +
          'Unknown owner_hash: 400; a taken name (name_exists) or an owner who already has a provider (provider_exists): 409.',
        body: CreateProviderBody,
        response: { 201: ProviderWithTokenResponse, ...errorResponses(400, 409) },
      },
    },
    async (request, reply) => {
      const owner = await users.findByHash(request.body.owner_hash);
      if (!owner) {
        throw errors.validation('No user has this owner_hash.', [
          { path: 'body.owner_hash', message: 'must be the user_hash of an existing user' },
        ]);
      }
      const { provider_name, provider_url } = request.body;
      return reply.status(201).send(await providers.create({ owner_id: owner.user_id, provider_name, provider_url }));
    },
  );

  app.get(
    '/providers',
    {
      schema: {
        summary: 'List providers',
        description: 'Every provider, oldest first, without tokens.',
        response: { 200: ProviderList },
      },
    },
    async () => providers.list(),
  );

  app.get(
    '/providers/by-name/:provider_name',
    {
      schema: {
        summary: 'Get a provider by name',
        description: 'The provider with this name.',
        params: NameParams,
        response: { 200: ProviderResponse, ...errorResponses(404) },
      },
    },
    async (request) => providers.getByName(request.params.provider_name),
  );

  app.get(
    '/providers/by-owner/:owner_id',
    {
      schema: {
        summary: "Get a user's provider",
        description: 'The provider owned by this user_id.',
        params: OwnerParams,
        response: { 200: ProviderResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => providers.getByOwner(request.params.owner_id),
  );

  app.patch(
    '/providers/:provider_hash',
    {
      schema: {
        summary: 'Change a provider',
        description:
          'Changes any of is_active, provider_url and provider_name (at least one; 400 no_update_fields otherwise).',
        params: HashParams,
        body: UpdateProviderBody,
        response: { 200: ProviderResponse, ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => providers.update(request.params.provider_hash, request.body),
  );

  app.delete(
    '/providers/:provider_hash',
    {
      schema: {
        summary: 'Delete a provider',
        description:
          'Deletes the provider with its connections and every subscription it manages; their links answer 404 at once.',
        params: HashParams,
        response: { 204: NoContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await providers.remove(request.params.provider_hash);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/providers/:provider_hash/refresh-token',
    {
      schema: {
        summary: "Re-issue a provider's API token",
        description: 'Issues a new provider API token; the old one stops working immediately.',
        params: HashParams,
        response: { 200: ProviderWithTokenResponse, ...errorResponses(404) },
      },
    },
    async (request) => providers.rotateToken(request.params.provider_hash),
  );
};
