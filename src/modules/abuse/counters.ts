// Fixed-window hit counters for rate limits and ban strikes: in Redis when reachable (shared by all instances), else in memory.
import type { Redis } from '../../redis.js';

export interface WindowCount {
  count: number;
  /** Milliseconds until the window ends and the count starts again at zero. */
  resetMs: number;
}

export interface Counters {
  /** Counts one hit; the first hit of a key opens a window of `windowMs`. */
  hit(key: string, windowMs: number): Promise<WindowCount>;
  /** Reads a count without changing it. */
  peek(key: string): Promise<WindowCount>;
}

export class MemoryCounters implements Counters {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private nextSweep = 0;

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const now = Date.now();
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetMs: window.endsAt - now };
  }

  async peek(key: string): Promise<WindowCount> {
    const now = Date.now();
    const window = this.windows.get(key);
    return window && window.endsAt > now
      ? { count: window.count, resetMs: window.endsAt - now }
      : { count: 0, resetMs: 0 };
  }

  /** Drops ended windows now and then, so keys of clients that went away do not pile up. */
  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + 60_000;
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }
}

export class RedisCounters implements Counters {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const name = this.prefix + key;
    // SET NX opens the window with its expiry; INCR keeps the expiry. One MULTI, so no key lives forever.
    const replies = await this.redis.multi().set(name, 0, 'PX', windowMs, 'NX').incr(name).pttl(name).exec();
    return toWindow(replies?.[1], replies?.[2], windowMs);
  }

  async peek(key: string): Promise<WindowCount> {
    const name = this.prefix + key;
    const replies = await this.redis.multi().get(name).pttl(name).exec();
    return toWindow(replies?.[0], replies?.[1], 0);
  }
}

/** Redis while it answers; this instance's own counts while it does not (or was never configured). */
export class FallbackCounters implements Counters {
  private readonly local = new MemoryCounters();
  private readonly shared: RedisCounters | null;

  constructor(
    private readonly redis: Redis | null,
    prefix: string,
  ) {
    this.shared = redis ? new RedisCounters(redis, prefix) : null;
  }

  hit(key: string, windowMs: number): Promise<WindowCount> {
    if (!this.shared || this.redis?.status !== 'ready') return this.local.hit(key, windowMs);
    return this.shared.hit(key, windowMs).catch(() => this.local.hit(key, windowMs));
  }

  peek(key: string): Promise<WindowCount> {
    if (!this.shared || this.redis?.status !== 'ready') return this.local.peek(key);
    return this.shared.peek(key).catch(() => this.local.peek(key));
  }
}

type Reply = [Error | null, unknown] | undefined;

function toWindow(countReply: Reply, ttlReply: Reply, fallbackMs: number): WindowCount {
  const failed = [countReply, ttlReply].find((reply) => !reply || reply[0]);
  if (failed) throw failed[0] ?? new Error('Redis transaction was aborted');
  const ttl = Number(ttlReply?.[1]);
  return { count: Number(countReply?.[1] ?? 0), resetMs: ttl > 0 ? ttl : fallbackMs };
}
