// The one place that builds the service's parts (Redis, change log, upstream, caches, abuse controls, services) and closes them.
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { ChangeLog } from './changes/change-log.js';
import { createRedis, redisHealth, type Redis, type RedisHealth } from './redis.js';
import { ExternalSources, type ExternalSourcesOptions, type Upstream } from './modules/fetch/external-sources.js';
import { createUpstreamClient, type UpstreamOptions } from './modules/fetch/upstream.js';
import { Refresher } from './modules/fetch/refresher.js';
import { RenderCache } from './modules/resolve/render-cache.js';
import { FormatSettings } from './modules/formats/format-settings.js';
import { AbuseControls } from './modules/abuse/abuse.service.js';
import { FallbackCounters } from './modules/abuse/counters.js';
import { RateLimiter } from './modules/abuse/rate-limiter.js';
import { DatabaseReplayGuard, RedisReplayGuard, type ReplayGuard } from './modules/admin/replay-guard.js';
import { SubscriptionsService } from './modules/subscriptions/subscriptions.service.js';
import { ConnectionsService } from './modules/connections/connections.service.js';
import { ProvidersService } from './modules/providers/providers.service.js';
import { UsersService } from './modules/users/users.service.js';
import { StatsService } from './modules/stats/stats.service.js';
import { createAuthenticator, type Authenticator } from './http/plugins/auth.js';
import type { RequestCounter } from './modules/stats/request-counter.js';
import { createRequestCounter } from './modules/stats/request-counting.js';
import { createRequestHistory } from './modules/history/history-recording.js';
import type { RequestHistory } from './modules/history/request-history.js';
import { Metrics } from './modules/metrics/metrics.js';
import { startHousekeeping, type Housekeeping } from './events/housekeeping.js';
import { WebhooksService } from './webhooks/webhooks.service.js';
import { WebhookDelivery } from './webhooks/delivery.js';
import { SessionsService } from './modules/sessions/sessions.service.js';
import { originRule } from './http/session-cookie.js';

export interface ContextOverrides {
  log?: FastifyBaseLogger;
  /** undefined: open one from REDIS_URL when set; null: run without Redis; a client: use it (the caller closes it). */
  redis?: Redis | null;
  /** Replaces the HTTP upstream client (tests). */
  upstream?: Upstream & { close?(): Promise<void> };
  requestCounter?: RequestCounter;
  requestHistory?: RequestHistory;
  /** How often the change log is read (default 250 ms). */
  changePollMs?: number;
}

export interface Readiness {
  status: 'ready' | 'unavailable';
  database: 'ok' | 'unavailable';
  redis: RedisHealth;
}

export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  log: FastifyBaseLogger;
  redis: Redis | null;
  changes: ChangeLog;
  external: ExternalSources;
  renderCache: RenderCache;
  formats: FormatSettings;
  requestCounter: RequestCounter;
  requestHistory: RequestHistory;
  abuse: AbuseControls;
  limiter: RateLimiter;
  replayGuard: ReplayGuard;
  refresher: Refresher;
  subscriptions: SubscriptionsService;
  connections: ConnectionsService;
  providers: ProvidersService;
  users: UsersService;
  stats: StatsService;
  /** The Prometheus series of this context (GET /metrics). */
  metrics: Metrics;
  /** Prunes the audit log (AUDIT_RETENTION_DAYS) and old events. */
  housekeeping: Housekeeping;
  webhooks: WebhooksService;
  /** Delivers webhook messages; started and stopped with the refresher (roles all and worker). */
  webhookDelivery: WebhookDelivery;
  /** Browser sessions and sign-in links. */
  sessions: SessionsService;
  /** API-Token (and session cookie) authentication, answered by the users, providers and sessions services. */
  auth: Authenticator;
  readiness(): Promise<Readiness>;
  /** True once shutdown began: new requests are refused (503 shutting_down) and connections are not kept alive. */
  readonly stopping: boolean;
  beginShutdown(): void;
  /** Stops the refresher, webhook delivery, the change log, the upstream client and Redis, in that order; the database stays open. */
  close(): Promise<void>;
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

export async function createContext(
  config: Config,
  database: DatabaseHandle,
  overrides: ContextOverrides = {},
): Promise<AppContext> {
  const log = overrides.log ?? (pino({ level: config.logLevel }) as FastifyBaseLogger);
  const metrics = new Metrics();
  const ownRedis = overrides.redis === undefined && config.redisUrl !== null;
  const redis =
    overrides.redis !== undefined ? overrides.redis : config.redisUrl ? createRedis(config.redisUrl, log) : null;

  const changes = new ChangeLog(database, {
    log,
    redis,
    channel: `${config.redisPrefix}:changes`,
    ...(overrides.changePollMs ? { pollMs: overrides.changePollMs } : {}),
  });
  await changes.start();
  const fetchLog = log.child({ module: 'fetch' });
  const upstream =
    overrides.upstream ??
    createUpstreamClient({
      ...upstreamOptions(config),
      onParserError: (err) => fetchLog.warn({ err }, 'upstream parser worker failed; its body is unparseable'),
    });
  const external = new ExternalSources(database, upstream, changes, {
    ...externalSourcesOptions(config),
    onFetched: (outcome, seconds) => metrics.fetched(outcome, seconds),
  });
  external.useLogger(fetchLog);
  const formats = await FormatSettings.start(database, changes, log.child({ module: 'formats' }));
  const renderCache = new RenderCache(database.db, config, changes, formats);
  const requestCounter = overrides.requestCounter ?? createRequestCounter(database.db, log);
  const requestHistory = overrides.requestHistory ?? createRequestHistory(database.db, log);
  const abuse = await AbuseControls.start(database, changes);
  const limiter = new RateLimiter(new FallbackCounters(redis, `${config.redisPrefix}:`), config);
  const storedReplays = new DatabaseReplayGuard(database.db);
  const replayGuard = redis ? new RedisReplayGuard(redis, config.redisPrefix, storedReplays) : storedReplays;
  const refresher = new Refresher(external, {
    intervalSeconds: config.refreshIntervalSeconds,
    claimSeconds: Math.ceil((config.fetchTimeoutMs * 2) / 1000) + 60,
    log: log.child({ role: 'refresher' }),
    onCycle: (seconds) => metrics.refreshCycle(seconds),
  });
  metrics.watch({
    renderCache,
    database,
    activeFetches: () => external.activeFetches,
    refreshBacklog: () => external.countDue(config.refreshIntervalSeconds),
  });

  const housekeeping = startHousekeeping(database.db, config.auditRetentionDays, log.child({ module: 'events' }));
  const webhookDelivery = new WebhookDelivery(database, {
    retryDelaysSeconds: config.webhookRetryDelays,
    concurrency: config.webhookConcurrency,
    pollMs: config.webhookPollMs,
    allowPrivate: config.fetchAllowPrivate,
    userAgent: config.fetchUserAgent,
    log: log.child({ role: 'webhooks' }),
  });
  const users = new UsersService(database, changes);
  const providers = new ProvidersService(database, changes);
  const sessions = new SessionsService(database, config.publicBaseUrl);

  let closed: Promise<void> | null = null;
  let stopping = false;
  return {
    get stopping() {
      return stopping;
    },
    beginShutdown: () => {
      stopping = true;
    },
    config,
    database,
    log,
    redis,
    changes,
    external,
    renderCache,
    formats,
    requestCounter,
    requestHistory,
    abuse,
    limiter,
    replayGuard,
    refresher,
    subscriptions: new SubscriptionsService(database, config, renderCache, changes, external),
    connections: new ConnectionsService(database, config),
    providers,
    users,
    stats: new StatsService(database.db, requestCounter),
    metrics,
    housekeeping,
    webhooks: new WebhooksService(database.db, config.fetchAllowPrivate),
    webhookDelivery,
    sessions,
    auth: createAuthenticator(
      {
        userByToken: (token) => users.findByToken(token),
        providerByToken: (token) => providers.findByToken(token),
        userBySession: (value) => sessions.find(value),
      },
      originRule(config.publicBaseUrl, config.publicBaseUrlSet),
    ),
    readiness: async () => {
      const databaseOk = await database.checkWritable().then(
        () => true,
        () => false,
      );
      return {
        status: databaseOk ? 'ready' : 'unavailable',
        database: databaseOk ? 'ok' : 'unavailable',
        redis: redisHealth(redis),
      };
    },
    close: () =>
      (closed ??= (async () => {
        await refresher.stop();
        await webhookDelivery.stop();
        await housekeeping.stop();
        await changes.close();
        await upstream.close?.();
        if (ownRedis && redis) redis.disconnect();
      })()),
  };
}
