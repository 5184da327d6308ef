// Refuses an admin signature seen before within its validity window; shared through Redis when configured.
import type { Redis } from '../../redis.js';

export interface ReplayGuard {
  /** Records the signature; false when it was already recorded and has not expired. */
  firstUse(signature: string, ttlMs: number): Promise<boolean>;
  /**
   * The earliest X-Timestamp (ms) this guard can vouch for. A memory guard knows nothing from before it was made,
   * so an older signature, perhaps accepted by the previous process, is refused rather than accepted again.
   */
  readonly rememberedSince: number;
}

export class MemoryReplayGuard implements ReplayGuard {
  private readonly seen = new Map<string, number>();
  readonly rememberedSince = Date.now();

  async firstUse(signature: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    for (const [key, expires] of this.seen) {
      if (expires > now) break; // insertion order is expiry order for a fixed ttl
      this.seen.delete(key);
    }
    if ((this.seen.get(signature) ?? 0) > now) return false;
    this.seen.set(signature, now + ttlMs);
    return true;
  }
}

/** Shared through Redis while it answers; while it does not, this instance remembers what it saw. */
export class RedisReplayGuard implements ReplayGuard {
  /** Redis outlives any one process: every signature in the window is remembered. */
  readonly rememberedSince = 0;
  private readonly local = new MemoryReplayGuard();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async firstUse(signature: string, ttlMs: number): Promise<boolean> {
    if (!(await this.local.firstUse(signature, ttlMs))) return false;
    if (this.redis.status !== 'ready') return true;
    const reply = await this.redis.set(`${this.prefix}:replay:${signature}`, '1', 'PX', ttlMs, 'NX').catch(() => 'OK');
    return reply === 'OK';
  }
}
