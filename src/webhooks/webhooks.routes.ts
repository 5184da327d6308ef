// The webhook endpoints API, mounted for admins (/api/v1/admin/webhooks) and for providers (/api/v1/providers/webhooks).
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorResponses, NoContent } from '../http/schemas.js';
import { providerCaller } from '../http/caller.js';
import type { Authenticator } from '../http/plugins/auth.js';
import { providerOnlyRoutes } from '../http/route-defaults.js';
import type { Owner } from './endpoints.store.js';
import { MAX_PROVIDER_ENDPOINTS, type WebhooksService } from './webhooks.service.js';
import {
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveryList,
  DeliveryParams,
  RotatedSecretResponse,
  TestResponse,
  UpdateWebhookBody,
  WebhookList,
  WebhookParams,
  WebhookResponse,
  WebhookWithSecretResponse,
} from './webhooks.schemas.js';

interface Options {
  webhooks: WebhooksService;
  /** Whose endpoints the caller manages: null for admins, the provider's hash for a provider. */
  owner: (request: FastifyRequest) => Owner;
  /** Added to the create route's description. */
  limitNote: string;
}

const webhookRoutes: FastifyPluginAsync<Options> = async (fastify, { webhooks, owner, limitNote }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/webhooks',
    {
      schema: {
        summary: 'Create a webhook endpoint',
        description:
          'Registers a receiver of events, signed per Standard Webhooks (docs/webhooks.md). The answer holds the ' +
          `signing secret, shown only here. A bad or private URL: 400 invalid_url. ${limitNote}`,
        body: CreateWebhookBody,
        response: { 201: WebhookWithSecretResponse, ...errorResponses(400, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await webhooks.create(owner(request), request.body)),
  );

  app.get(
    '/webhooks',
    {
      schema: {
        summary: 'List webhook endpoints',
        description: 'Your endpoints, oldest first, without their secrets.',
        response: { 200: WebhookList },
      },
    },
    async (request) => webhooks.list(owner(request)),
  );

  app.get(
    '/webhooks/:webhook_id',
    {
      schema: {
        summary: 'Get a webhook endpoint',
        description: 'One of your endpoints, without its secret.',
        params: WebhookParams,
        response: { 200: WebhookResponse, ...errorResponses(404) },
      },
    },
    async (request) => webhooks.get(owner(request), request.params.webhook_id),
  );

  app.patch(
    '/webhooks/:webhook_id',
    {
      schema: {
        summary: 'Change a webhook endpoint',
        description: 'Changes the given fields; `enabled: true` also clears `disabled_reason`.',
        params: WebhookParams,
        body: UpdateWebhookBody,
        response: { 200: WebhookResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => webhooks.update(owner(request), request.params.webhook_id, request.body),
  );

  app.delete(
    '/webhooks/:webhook_id',
    {
      schema: {
        summary: 'Delete a webhook endpoint',
        description: 'Deletes the endpoint with its undelivered messages and delivery log.',
        params: WebhookParams,
        response: { 204: NoContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await webhooks.remove(owner(request), request.params.webhook_id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/webhooks/:webhook_id/rotate-secret',
    {
      schema: {
        summary: 'Rotate the signing secret',
        description:
          'Makes a new secret (shown only here). For 24 hours deliveries carry two signatures, with the new and ' +
          'the old secret, space-separated in `webhook-signature`.',
        params: WebhookParams,
        response: { 200: RotatedSecretResponse, ...errorResponses(404) },
      },
    },
    async (request) => webhooks.rotateSecret(owner(request), request.params.webhook_id),
  );

  app.post(
    '/webhooks/:webhook_id/test',
    {
      schema: {
        summary: 'Send a test event',
        description: 'Queues a `webhook.test` event for this endpoint only (also when it is disabled it waits).',
        params: WebhookParams,
        response: { 202: TestResponse, ...errorResponses(404) },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await webhooks.sendTest(owner(request), request.params.webhook_id)),
  );

  app.get(
    '/webhooks/:webhook_id/deliveries',
    {
      schema: {
        summary: 'The delivery log',
        description: 'Messages to this endpoint, newest first, each with its attempts: time, status, duration, answer.',
        params: WebhookParams,
        querystring: DeliveriesQuery,
        response: { 200: DeliveryList, ...errorResponses(400, 404) },
      },
    },
    async (request) => webhooks.deliveries(owner(request), request.params.webhook_id, request.query.limit ?? 50),
  );

  app.post(
    '/webhooks/:webhook_id/deliveries/:delivery_id/redeliver',
    {
      schema: {
        summary: 'Deliver a message again',
        description: 'Queues the message now with a fresh retry schedule; it keeps its `webhook-id`.',
        params: DeliveryParams,
        response: { 202: NoContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await webhooks.redeliver(owner(request), request.params.webhook_id, request.params.delivery_id);
      return reply.status(202).send(null);
    },
  );
};

/** Registered inside the guarded admin scope. */
export const adminWebhookRoutes: FastifyPluginAsync<{ webhooks: WebhooksService }> = async (app, { webhooks }) => {
  await app.register(webhookRoutes, { webhooks, owner: () => null, limitNote: '' });
};

/** Mounted at /api/v1/providers: each provider manages its own endpoints. */
export const providerWebhookRoutes: FastifyPluginAsync<{ webhooks: WebhooksService; auth: Authenticator }> = async (
  app,
  { webhooks, auth },
) => {
  providerOnlyRoutes(app, auth, ['Webhooks']);
  await app.register(webhookRoutes, {
    webhooks,
    owner: (request) => providerCaller(request).providerHash,
    limitNote: `At most ${MAX_PROVIDER_ENDPOINTS} per provider: 409 webhook_limit_reached.`,
  });
};
