// The background worker that re-fetches every external URL in use once per REFRESH_INTERVAL_SECONDS.
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from '../../db/errors.js';
import type { ExternalSources } from './external-sources.js';

export interface RefresherOptions {
  intervalSeconds: number;
  /** How long a claimed URL stays reserved for this worker before another may take it over. */
  claimSeconds: number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Told how long each pass took, failed ones included (metrics). */
  onCycle?: (seconds: number) => void;
}

export class Refresher {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopping = false;
  /** A database outage is logged once, without a stack, not on every pass until it ends. */
  private databaseDown = false;

  constructor(
    private readonly external: ExternalSources,
    private readonly options: RefresherOptions,
  ) {}

  /** Ticks often enough that no URL waits much longer than its interval; each tick only takes what is due. */
  start(): void {
    const tickMs = Math.min(this.options.intervalSeconds, 30) * 1000;
    this.timer = setInterval(() => void this.tick(), tickMs);
    this.timer.unref();
    void this.tick();
  }

  /** Runs one pass unless one is already running; resolves when it is done. */
  tick(): Promise<void> {
    if (this.stopping) return Promise.resolve();
    const startedAt = performance.now();
    this.running ??= this.external
      .refreshDue(this.options.intervalSeconds, this.options.claimSeconds, () => !this.stopping)
      .then((count) => {
        this.databaseDown = false;
        if (count > 0) this.options.log.info({ refreshed: count }, 'external sources refreshed');
      })
      .catch((error: unknown) => {
        if (!isDatabaseUnavailable(error)) return this.options.log.error({ err: error }, 'refresh pass failed');
        if (!this.databaseDown) {
          const cause = error instanceof Error ? error.message : String(error);
          this.options.log.warn({ cause }, 'refresh pass skipped: database unavailable; retrying every pass');
        }
        this.databaseDown = true;
      })
      .finally(() => {
        this.running = null;
        this.options.onCycle?.((performance.now() - startedAt) / 1000);
      });
    return this.running;
  }

  /** Claims no new work from now on; resolves when the fetches already claimed have finished. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
