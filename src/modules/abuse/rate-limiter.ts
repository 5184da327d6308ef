// The three request budgets of docs/security.md (public per IP, API per credential, anonymous per IP) and the strikes that lead to an automatic ban.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Counters, WindowCount } from './counters.js';

export type LimitName = 'public' | 'api' | 'anon';

export interface LimitVerdict {
  limit: number;
  remaining: number;
  /** Whole seconds until the window ends (at least 1). */
  resetSeconds: number;
  allowed: boolean;
}

export const WINDOW_MS = 60_000;
export const STRIKE_WINDOW_MS = 10 * 60_000;

export class RateLimiter {
  private readonly limits: Record<LimitName, number>;
  private readonly autoBanAfter: number;

  constructor(
    private readonly counters: Counters,
    config: Pick<Config, 'rateLimitPublicPerMin' | 'rateLimitApiPerMin' | 'rateLimitAnonPerMin' | 'autoBanViolations'>,
  ) {
    this.limits = {
      public: config.rateLimitPublicPerMin,
      api: config.rateLimitApiPerMin,
      anon: config.rateLimitAnonPerMin,
    };
    this.autoBanAfter = config.autoBanViolations;
  }

  enabled(name: LimitName): boolean {
    return this.limits[name] > 0;
  }

  /** Counts this request against the budget; null when the limit is disabled. */
  async hit(name: LimitName, key: string): Promise<LimitVerdict | null> {
    const limit = this.limits[name];
    if (limit <= 0) return null;
    const window = await this.counters.hit(`rl:${name}:${key}`, WINDOW_MS);
    return verdict(limit, window, window.count <= limit);
  }

  /** Looks at the budget without spending any of it; refused once it is used up. */
  async peek(name: LimitName, key: string): Promise<LimitVerdict | null> {
    const limit = this.limits[name];
    if (limit <= 0) return null;
    const window = await this.counters.peek(`rl:${name}:${key}`);
    return verdict(limit, window.count > 0 ? window : { count: 0, resetMs: WINDOW_MS }, window.count < limit);
  }

  /** Records a rate-limit rejection for `ip`; true when it reaches AUTO_BAN_VIOLATIONS within 10 minutes. */
  async strike(ip: string): Promise<boolean> {
    if (this.autoBanAfter <= 0) return false;
    const window = await this.counters.hit(`strike:${ip}`, STRIKE_WINDOW_MS);
    return window.count >= this.autoBanAfter;
  }
}

function verdict(limit: number, window: WindowCount, allowed: boolean): LimitVerdict {
  return {
    limit,
    remaining: Math.max(0, limit - window.count),
    resetSeconds: Math.max(1, Math.ceil(window.resetMs / 1000)),
    allowed,
  };
}

export function rateLimitHeaders(verdict: LimitVerdict): Record<string, string> {
  return {
    'ratelimit-limit': String(verdict.limit),
    'ratelimit-remaining': String(verdict.remaining),
    'ratelimit-reset': String(verdict.resetSeconds),
  };
}

/** Counters live in Redis when configured; if it fails, requests are let through rather than refused. */
export async function safely<T>(log: FastifyBaseLogger, run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    log.warn({ err: error }, 'rate-limit counters unavailable; request allowed');
    return null;
  }
}
