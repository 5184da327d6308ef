// Builds the Fastify application from its dependencies: shared plugins, error handling, docs and every module's routes.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { frameworkErrors, installErrorHandling } from './http/errors.js';
import { validatorCompiler } from './http/validation.js';
import { installJsonBodyParser } from './http/json-body.js';
import { registerDocs } from './http/docs.js';
import { healthRoutes } from './http/health.js';
import { authenticateUser } from './http/plugins/auth.js';
import { subscriptionRoutes } from './modules/subscriptions/subscriptions.routes.js';
import { SubscriptionsService } from './modules/subscriptions/subscriptions.service.js';
import { ConnectionsService } from './modules/connections/connections.service.js';
import { UserIdParams } from './modules/connections/connections.schemas.js';
import { meRoutes } from './modules/connections/me.routes.js';
import { providerRoutes } from './modules/connections/provider.routes.js';
import { providerScope, userIdParam } from './modules/connections/provider-scope.js';
import { ChangeFeed, relayChangesThroughRedis } from './modules/resolve/change-feed.js';
import { RenderCache } from './modules/resolve/render-cache.js';
import { publicRoutes } from './modules/resolve/public.routes.js';
import { connectPageRoutes } from './modules/connect/connect.routes.js';
import { ExternalSources, type ExternalSourcesOptions } from './modules/fetch/external-sources.js';
import { createUpstreamClient, type UpstreamOptions } from './modules/fetch/upstream.js';
import { installClientIp } from './http/client-ip.js';
import { createRedis, type Redis } from './redis.js';
import { adminPlugin } from './modules/admin/admin.plugin.js';
import { adminRoutes } from './modules/admin/admin.routes.js';
import { MemoryReplayGuard, RedisReplayGuard } from './modules/admin/replay-guard.js';
import { installAbuseControls } from './modules/abuse/abuse.plugin.js';
import type { RequestCounter } from './modules/stats/request-counter.js';
import { createRequestCounter, installRequestCounting } from './modules/stats/request-counting.js';

export interface AppDependencies {
  config: Config;
  database: DatabaseHandle;
  logger?: FastifyServerOptions['logger'];
  /** Shared with background roles (the refresher) so their changes reach this app's caches. */
  changes?: ChangeFeed;
  external?: ExternalSources;
  /** Shared Redis connection; undefined = open one from REDIS_URL when set, null = none. */
  redis?: Redis | null;
  /** Prefix of Redis keys and channels (tests isolate parallel apps with it). */
  redisPrefix?: string;
  /** Request counter for statistics; default: one writing to this database every 5 s. */
  requestCounter?: RequestCounter;
}

export function upstreamOptions(config: Config): UpstreamOptions {
  return {
    timeoutMs: config.fetchTimeoutMs,
    maxBytes: config.fetchMaxBytes,
    maxRedirects: config.fetchMaxRedirects,
    userAgent: config.fetchUserAgent,
    allowPrivate: config.fetchAllowPrivate,
    maxLines: config.maxResolvedConfigs,
  };
}

export function externalSourcesOptions(config: Config): ExternalSourcesOptions {
  return { concurrency: config.fetchConcurrency, maxLines: config.maxResolvedConfigs };
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
    frameworkErrors,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 8192 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler());
  installErrorHandling(app);
  installJsonBodyParser(app);
  installClientIp(app, config.trustProxy);
  app.decorateRequest('credential', null);
  const redis = deps.redis === undefined ? (config.redisUrl ? createRedis(config.redisUrl) : null) : deps.redis;
  if (redis && deps.redis === undefined) app.addHook('onClose', async () => void (await redis.quit()));
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // Statistics count every request in memory and write the sums in batches, never on the request path.
  const requestCounter = deps.requestCounter ?? createRequestCounter(database.db, app.log);
  installRequestCounting(app, requestCounter);
  // Bans and rate limits: root hooks added before any route plugin run ahead of the routes' own authentication.
  const abuse = await installAbuseControls(app, { config, database, redis, redisPrefix: `${deps.redisPrefix ?? 'subweave'}:` });

  await registerDocs(app, config);
  await app.register(healthRoutes, { database });

  const changes = deps.changes ?? new ChangeFeed();
  if (redis) {
    const stopRelay = await relayChangesThroughRedis(changes, redis, `${deps.redisPrefix ?? 'subweave'}:changes`);
    app.addHook('onClose', () => stopRelay());
  }
  let external = deps.external;
  if (!external) {
    const upstream = createUpstreamClient(upstreamOptions(config));
    app.addHook('onClose', () => upstream.close());
    external = new ExternalSources(database, upstream, changes, externalSourcesOptions(config));
  }
  external.useLogger(app.log.child({ module: 'fetch' }));
  const renderCache = new RenderCache(database.db, config, changes);
  await app.register(publicRoutes, { cache: renderCache });
  await app.register(connectPageRoutes, { db: database.db });

  const subscriptions = new SubscriptionsService(database, config, renderCache, changes, external);
  await app.register(subscriptionRoutes, {
    prefix: '/api/v1/subs',
    service: subscriptions,
    tag: 'Subscriptions',
    resolveScope: async (request) => ({ userId: (await authenticateUser(database.db, request)).user_id, provider: null }),
    prefixFor: () => '/api/v1/subs',
  });

  // Providers: their API, and the same subscription routes mounted a second time for the users who approved them.
  const connections = new ConnectionsService(database, config);
  await app.register(providerRoutes, { prefix: '/api/v1/providers', db: database.db, connections });
  await app.register(subscriptionRoutes, {
    prefix: '/api/v1/providers/:user_id/subs',
    service: subscriptions,
    tag: 'Providers',
    resolveScope: providerScope(database.db, connections),
    prefixFor: (request) => `/api/v1/providers/${userIdParam(request)}/subs`,
    scopeParams: UserIdParams,
  });
  await app.register(meRoutes, { prefix: '/api/v1/me', db: database.db, connections });

  await app.register(adminPlugin, {
    prefix: '/api/v1/admin',
    config,
    replayGuard: redis ? new RedisReplayGuard(redis) : new MemoryReplayGuard(),
    routes: adminRoutes({ config, database, changes, abuse, requestCounter, connections }),
  });

  return app;
}
