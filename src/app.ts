// Builds the Fastify application from its dependencies: shared plugins, error handling, docs and every module's routes.
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { frameworkErrors, installErrorHandling } from './http/errors.js';
import { validatorCompiler } from './http/validation.js';
import { installJsonBodyParser } from './http/json-body.js';
import { registerDocs } from './http/docs.js';
import { healthRoutes } from './http/health.js';
import { subscriptionRoutes } from './modules/subscriptions/subscriptions.routes.js';
import { ProviderUserParams } from './modules/connections/connections.schemas.js';
import { meRoutes } from './modules/connections/me.routes.js';
import { meTokenRoutes } from './modules/users/me-token.routes.js';
import { providerRoutes } from './modules/connections/provider.routes.js';
import { providerScope, userIdParam } from './modules/connections/provider-scope.js';
import { publicRoutes } from './modules/resolve/public.routes.js';
import { linkPreview } from './modules/resolve/link-preview.js';
import { linkLane } from './modules/resolve/link-lane.js';
import { LinkPipeline } from './modules/resolve/link-pipeline.js';
import { answerFirst } from './http/lanes.js';
import { connectPageRoutes } from './modules/connect/connect.routes.js';
import { brandingPublicRoutes } from './modules/branding/branding.routes.js';
import { clientIpResolver, installClientIp } from './http/client-ip.js';
import { requireRouteKinds } from './http/route-kind.js';
import { connectionOptions, requestId } from './http/connections.js';
import { OneLineRequestLog, withSafeLogging } from './http/request-log.js';
import { adminRoutes } from './modules/admin/admin.routes.js';
import { providerWebhookRoutes } from './webhooks/webhooks.routes.js';
import { installAbuseHooks } from './modules/abuse/abuse.hooks.js';
import { PublicGate } from './modules/abuse/public-gate.js';
import { installRequestCounting } from './modules/stats/request-counting.js';
import { installHistoryFlush } from './modules/history/history-recording.js';
import { readHistory } from './modules/history/history.service.js';
import { installRequestMetrics } from './modules/metrics/request-metrics.js';
import { metricsRoutes } from './modules/metrics/metrics.routes.js';
import type { AppContext } from './context.js';
import { errors } from './http/errors.js';
import { installActingContext } from './events/http-acting.js';
import { meAuditRoutes } from './events/audit.routes.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { DEFAULT_APP_DIR } from './modules/dashboard/app-files.js';
import { installSessionRenewal, originRule } from './http/session-cookie.js';
import { providerSignInLinkRoutes, sessionRoutes } from './modules/sessions/sessions.routes.js';

export interface AppOptions {
  /** A pino logger (the process's), or Fastify logger options; default: no logging. */
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger;
  /** The built dashboard (default dist/app, docs/dashboard.md); tests point it elsewhere. */
  appDir?: string;
}

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Registers hooks and routes on the parts `context` built; builds none of its own. */
export async function buildApp(context: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config } = context;
  const logger = options.logger;
  const app = Fastify({
    // A logger instance (the process's) carries the safe serializers itself (main.ts loggerOptions).
    ...(isLoggerInstance(logger) ? { loggerInstance: logger } : { logger: withSafeLogging(logger ?? false) }),
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: false,
    logController: new OneLineRequestLog(),
    genReqId: requestId,
    ...connectionOptions(config.requestTimeoutMs),
    trustProxy: false,
    // Requests reaching a closing server are answered by the hook below, in the error envelope.
    return503OnClosing: false,
    frameworkErrors,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 8192 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  requireRouteKinds(app);
  installActingContext(app);
  app.setValidatorCompiler(validatorCompiler());
  installErrorHandling(app);
  installJsonBodyParser(app);
  app.addHook('preClose', (done) => {
    context.beginShutdown();
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // Requests that reach a closing server (keep-alive connections) get the envelope and go elsewhere.
    if (context.stopping) return done(errors.shuttingDown());
    done();
  });
  const clientIp = clientIpResolver(config.trustProxy, () =>
    app.log.warn(
      'a request carries X-Forwarded-For but TRUST_PROXY is unset: the socket address is used as the client IP; set TRUST_PROXY to your proxies',
    ),
  );
  installClientIp(app, clientIp);
  app.decorateRequest('caller', null);
  // Once stopping, every answer closes its connection, so no keep-alive connection holds the shutdown open.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (context.stopping) reply.header('connection', 'close');
    done(null, payload);
  });
  // Statistics count every request in memory and write the sums in batches, never on the request path.
  installRequestCounting(app, context.requestCounter);
  // The request history of each link, kept the same way (src/modules/history).
  installHistoryFlush(app, context.requestHistory);
  // Request metrics: one onResponse hook per route (and one for unmatched requests), observing Fastify's reply time.
  const routeObserver = installRequestMetrics(app, context.metrics);
  // Bans and rate limits: root hooks added before any route plugin run ahead of the routes' own authentication.
  const gate = new PublicGate(context.abuse, context.limiter, app.log);
  installAbuseHooks(app, {
    controls: context.abuse,
    limiter: context.limiter,
    gate,
    defaultBanSeconds: config.defaultBanSeconds,
    observer: context.metrics,
  });

  // The public link: one pipeline answers and accounts, called by the route and by the lane in front of Fastify.
  const pipeline = new LinkPipeline({
    formats: context.formats,
    branding: context.branding,
    publicBaseUrl: config.publicBaseUrl,
    gate,
    stopping: () => context.stopping,
    count: (kind) => context.requestCounter.count(kind),
    history: context.requestHistory,
    routeObserver,
    log: app.log,
  });
  // Whatever a request reads (counts, history, metrics, the log) includes every link answer written before it.
  app.addHook('onRequest', (_request, _reply, done) => {
    pipeline.settle();
    done();
  });
  app.addHook('preClose', (done) => {
    pipeline.settle();
    done();
  });

  // Browser sessions (docs/security.md): a slid session's cookie is sent again with the answer.
  const origins = originRule(config.publicBaseUrl, config.publicBaseUrlSet);
  installSessionRenewal(app, origins.secure);

  await registerDocs(app, config);
  await app.register(healthRoutes, { readiness: context.readiness });
  await app.register(metricsRoutes, { config, metrics: context.metrics });

  await app.register(publicRoutes, {
    cache: context.renderCache,
    formats: context.formats,
    branding: context.branding,
    pipeline,
    history: context.requestHistory,
  });
  // Warm link requests are answered ahead of Fastify's pipeline; the lane hands everything else to it.
  answerFirst(
    app.server,
    linkLane({
      cache: context.renderCache,
      pipeline,
      clientIp,
      stopping: () => context.stopping,
      answered: () => context.metrics.laneAnswers++,
      log: app.log,
    }),
  );
  await app.register(connectPageRoutes, { providers: context.providers, branding: context.branding });
  await app.register(brandingPublicRoutes, { branding: context.branding });
  await app.register(dashboardRoutes, { appDir: options.appDir ?? DEFAULT_APP_DIR });

  const { subscriptions, connections, auth } = context;
  const { renderCache, formats, branding } = context;
  const preview = linkPreview(renderCache, formats, branding, config.publicBaseUrl, config.maxResolvedConfigs);
  const history = {
    read: (token: string) => readHistory(context.database.db, context.requestHistory, token),
    flush: () => context.requestHistory.flush(),
  };
  await app.register(subscriptionRoutes, {
    prefix: '/api/v1/subs',
    kind: 'user',
    service: subscriptions,
    tag: 'Subscriptions',
    resolveScope: async (request) => ({ userId: (await auth.user(request)).userId, provider: null }),
    prefixFor: () => '/api/v1/subs',
    preview,
    history,
  });

  // Providers: their API, and the same subscription routes mounted a second time for the users who approved them.
  await app.register(providerRoutes, { prefix: '/api/v1/providers', auth, connections });
  await app.register(subscriptionRoutes, {
    prefix: '/api/v1/providers/:user_id/subs',
    kind: 'provider',
    service: subscriptions,
    tag: 'Providers',
    resolveScope: providerScope(auth, connections),
    prefixFor: (request) => `/api/v1/providers/${userIdParam(request)}/subs`,
    scopeParams: ProviderUserParams,
    preview,
    history,
  });
  await app.register(providerWebhookRoutes, { prefix: '/api/v1/providers', auth, webhooks: context.webhooks });
  await app.register(meRoutes, { prefix: '/api/v1/me', auth, connections });
  await app.register(meAuditRoutes, { prefix: '/api/v1/me', auth, db: context.database.db });
  await app.register(meTokenRoutes, { prefix: '/api/v1/me', auth, users: context.users, origins });
  await app.register(sessionRoutes, { prefix: '/api/v1/session', sessions: context.sessions, origins });
  await app.register(providerSignInLinkRoutes, {
    prefix: '/api/v1/providers',
    auth,
    connections,
    sessions: context.sessions,
  });

  await app.register(adminRoutes, {
    prefix: '/api/v1/admin',
    config,
    replayGuard: context.replayGuard,
    users: context.users,
    providers: context.providers,
    connections,
    abuse: context.abuse,
    stats: context.stats,
    formats: context.formats,
    branding: context.branding,
    db: context.database.db,
    webhooks: context.webhooks,
    sessions: context.sessions,
  });

  return app;
}

function isLoggerInstance(logger: AppOptions['logger']): logger is FastifyBaseLogger {
  return typeof logger === 'object' && logger !== null && typeof (logger as FastifyBaseLogger).child === 'function';
}
