// Refuses an admin signature seen before within its validity window, on every instance sharing the database (and Redis, when configured).
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Redis } from '../../redis.js';
import { pruneReplays, recordReplay } from './replays.store.js';

export interface ReplayGuard {
  /** Records the signature; false when it was already recorded and has not expired. */
  firstUse(signature: string, ttlMs: number): Promise<boolean>;
}

/**
 * Accepted signatures live in the database until they expire, so every instance sharing it, and the next process after
 * a restart, refuses them. The insert is the check: of two instances racing with one signature, one inserts it.
 */
export class DatabaseReplayGuard implements ReplayGuard {
  constructor(private readonly db: Kysely<Database>) {}

  async firstUse(signature: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    // Expired rows go first: the table holds only signatures still inside their window.
    await pruneReplays(this.db, now);
    return recordReplay(this.db, createHash('sha256').update(signature).digest('hex'), now + ttlMs);
  }
}

/**
 * Redis and the database both record every signature, and either one having seen it refuses it: a signature accepted
 * while Redis answered is still refused by an instance that finds Redis gone. Redis is asked first and the database
 * only for a signature Redis has not seen, so of several racers exactly one wins both (asked at once, one racer could
 * win Redis and another the database, and all would be refused). While Redis is down the database alone decides;
 * while the database is down Redis alone does.
 */
export class RedisReplayGuard implements ReplayGuard {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly database: ReplayGuard,
  ) {}

  async firstUse(signature: string, ttlMs: number): Promise<boolean> {
    if (this.redis.status !== 'ready') return this.database.firstUse(signature, ttlMs);
    let sharedFirst: boolean | null;
    try {
      sharedFirst = (await this.redis.set(`${this.prefix}:replay:${signature}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
    } catch {
      sharedFirst = null;
    }
    if (sharedFirst === false) return false;
    try {
      return await this.database.firstUse(signature, ttlMs);
    } catch (error) {
      if (sharedFirst === null) throw error;
      return true;
    }
  }
}
