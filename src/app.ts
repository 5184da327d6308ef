// Builds the Fastify application from its dependencies: shared plugins, error handling, docs and every module's routes.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { installErrorHandling } from './http/errors.js';
import { validatorCompiler } from './http/validation.js';
import { registerDocs } from './http/docs.js';
import { healthRoutes } from './http/health.js';
import { authenticateUser } from './http/plugins/auth.js';
import { subscriptionRoutes } from './modules/subscriptions/subscriptions.routes.js';
import { SubscriptionsService } from './modules/subscriptions/subscriptions.service.js';

export interface AppDependencies {
  config: Config;
  database: DatabaseHandle;
  logger?: FastifyServerOptions['logger'];
}

export const BODY_LIMIT_BYTES = 1024 * 1024;

export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    trustProxy: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler());
  installErrorHandling(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await registerDocs(app, config);
  await app.register(healthRoutes, { database });

  const subscriptions = new SubscriptionsService(database, config);
  await app.register(subscriptionRoutes, {
    prefix: '/api/v1/subs',
    service: subscriptions,
    tag: 'Subscriptions',
    resolveScope: async (request) => ({ userId: (await authenticateUser(database.db, request)).user_id, provider: null }),
    prefixFor: () => '/api/v1/subs',
  });

  return app;
}
