// The Prometheus series of one service context: a registry of its own (several apps share a test process), fed by cheap hooks and read at scrape time.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { CellHistogram, type HistogramCell } from './cell-histogram.js';

export const METRIC_PREFIX = 'subweave_';

/** What the request hook observes into: one per (method, route, kind, status), kept by the caller. */
export type RequestTimer = Pick<HistogramCell, 'observe'>;

/** Sizes read when Prometheus scrapes, never on a request. */
export interface MetricSources {
  renderCache: { readonly size: number; readonly byteSize: number; readonly hits: number; readonly misses: number };
  database: { poolUse(): { total: number; idle: number; waiting: number } };
  /** Upstream fetches running now in this process. */
  activeFetches(): number;
  /** Cached upstream URLs due for a fetch (a database count); rejects while the database is away. */
  refreshBacklog(): Promise<number>;
}

const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const FETCH_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const CYCLE_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];

/**
 * Process metrics (CPU, memory, event loop, GC) describe the process, not a context, and prom-client's collectors
 * install observers that are never removed: they are collected once per process, into a registry of their own
 * (never prom-client's global one), and appended to every context's scrape.
 */
let processRegistry: Registry | null = null;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: METRIC_PREFIX });
  }
  return processRegistry;
}

export class Metrics {
  readonly registry = new Registry();
  readonly contentType = this.registry.contentType;
  private readonly requests = new CellHistogram({
    name: `${METRIC_PREFIX}http_request_duration_seconds`,
    help: 'HTTP requests by method, route pattern (`unmatched` for 404/405), kind and status, and their latency.',
    buckets: REQUEST_BUCKETS,
    registry: this.registry,
  });
  private readonly fetches = new Histogram({
    name: `${METRIC_PREFIX}upstream_fetch_duration_seconds`,
    help: 'Upstream subscription fetches by outcome, and how long the HTTP fetch took.',
    labelNames: ['outcome'] as const,
    buckets: FETCH_BUCKETS,
    registers: [this.registry],
  });
  private readonly cycles = new Histogram({
    name: `${METRIC_PREFIX}refresher_cycle_duration_seconds`,
    help: 'Background refresher passes run by this process, and how long each took.',
    buckets: CYCLE_BUCKETS,
    registers: [this.registry],
  });
  private readonly rejections = new Counter({
    name: `${METRIC_PREFIX}rate_limit_rejections_total`,
    help: 'Requests refused 429 rate_limited, by budget (public, api, anon).',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });
  private readonly autoBans = new Counter({
    name: `${METRIC_PREFIX}auto_bans_total`,
    help: 'Automatic bans this process issued after repeated rate-limit rejections.',
    registers: [this.registry],
  });
  private readonly bannedRequests = new Counter({
    name: `${METRIC_PREFIX}banned_requests_total`,
    help: 'Requests refused 403 ip_banned.',
    registers: [this.registry],
  });

  /** Public-link requests the link lane answered ahead of Fastify's pipeline: a plain number, as it counts on the hot path. */
  laneAnswers = 0;

  constructor() {
    counted(
      this.registry,
      'link_lane_answers_total',
      "Public-link requests answered from the render cache ahead of Fastify's request pipeline (the link lane).",
      () => this.laneAnswers,
    );
  }

  /** A new cell per label set: the caller keeps it, so a request observes without building or hashing labels. */
  requestTimer(method: string, route: string, kind: string, status: number): RequestTimer {
    return this.requests.cell({ method, route, kind, status: String(status) });
  }

  fetched(outcome: string, seconds: number): void {
    this.fetches.observe({ outcome }, seconds);
  }

  refreshCycle(seconds: number): void {
    this.cycles.observe(seconds);
  }

  rateLimited(limit: string): void {
    this.rejections.inc({ limit });
  }

  autoBanned(): void {
    this.autoBans.inc();
  }

  banRefused(): void {
    this.bannedRequests.inc();
  }

  /** Registers the series read from the context's parts at scrape time. */
  watch(sources: MetricSources): void {
    const registers = [this.registry];
    const { renderCache, database } = sources;
    // Counted as plain numbers by the cache (its get() is the public link's hot path) and copied here on a scrape.
    counted(
      this.registry,
      'render_cache_hits_total',
      'Render cache reads answered from memory.',
      () => renderCache.hits,
    );
    counted(
      this.registry,
      'render_cache_misses_total',
      'Render cache reads that had to resolve the subscription from the database.',
      () => renderCache.misses,
    );
    gauge(this.registry, 'render_cache_entries', 'Subscriptions held resolved in memory.', () => renderCache.size);
    gauge(
      this.registry,
      'render_cache_bytes',
      'Estimated bytes the render cache holds (resolved lines and rendered bodies).',
      () => renderCache.byteSize,
    );
    gauge(this.registry, 'upstream_fetches_active', 'Upstream fetches running now.', sources.activeFetches);
    gauge(this.registry, 'db_pool_connections', 'Database connections open (SQLite: always 1).', () => {
      return database.poolUse().total;
    });
    gauge(this.registry, 'db_pool_idle_connections', 'Open database connections not in use.', () => {
      return database.poolUse().idle;
    });
    gauge(this.registry, 'db_pool_waiting', 'Queries and transactions waiting for a database connection.', () => {
      return database.poolUse().waiting;
    });
    // Last: the pool is read before this gauge's own query takes a connection.
    new Gauge({
      name: `${METRIC_PREFIX}refresher_backlog`,
      help: 'External URLs due for a fetch and not fetched yet (all instances; kept from the last scrape while the database is away).',
      registers,
      async collect() {
        const due = await sources.refreshBacklog().catch(() => null);
        if (due !== null) this.set(due);
      },
    });
  }

  /** The scrape: this context's series, then the process's. */
  async text(): Promise<string> {
    const [own, process] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return `${own}\n${process}`;
  }
}

/** A counter kept as a plain number elsewhere (on a hot path) and copied into the registry on a scrape. */
function counted(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name: `${METRIC_PREFIX}${name}`,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

function gauge(registry: Registry, name: string, help: string, read: () => number): void {
  new Gauge({
    name: `${METRIC_PREFIX}${name}`,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}
