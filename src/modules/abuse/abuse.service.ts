// Bans and the whitelist as operations: write the database, update this instance's view at once, and tell the others.
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/database.js';
import { IpMatcher, type IpRange } from '../../net/ip.js';
import type { Redis } from '../../redis.js';
import {
  activeBans,
  deleteBan,
  deleteWhitelist,
  listWhitelist,
  pruneBans,
  upsertBan,
  upsertWhitelist,
  type BanEntry,
  type WhitelistEntry,
} from './abuse.store.js';
import { IpView } from './ip-view.js';
import { startViewSync, type ViewSync } from './view-sync.js';

export interface BanStatus {
  ip_address: string;
  is_banned: boolean;
  banned_until: string | null;
  remaining_seconds: number;
}

export interface AbuseControlsOptions {
  database: DatabaseHandle;
  redis: Redis | null;
  /** Prefix of the Redis pub/sub channel; the same for every instance of one deployment. */
  redisPrefix: string;
  log: FastifyBaseLogger;
}

export class AbuseControls {
  private constructor(
    private readonly database: DatabaseHandle,
    readonly view: IpView,
    private readonly sync: ViewSync,
  ) {}

  static async start({ database, redis, redisPrefix, log }: AbuseControlsOptions): Promise<AbuseControls> {
    const view = new IpView(database.db);
    await view.reload();
    const sync = await startViewSync({ view, db: database.db, log, redis, channel: `${redisPrefix}abuse:changed` });
    return new AbuseControls(database, view, sync);
  }

  async ban(range: IpRange, seconds: number, reason: string): Promise<{ ip_address: string; banned_until: string; remaining_seconds: number }> {
    const now = Date.now();
    const until = new Date(now + seconds * 1000).toISOString();
    this.view.addBan(range.text, now + seconds * 1000);
    await pruneBans(this.database.db, new Date(now).toISOString());
    await upsertBan(this.database.db, range.text, until, reason, new Date(now).toISOString());
    await this.changed();
    return { ip_address: range.text, banned_until: until, remaining_seconds: seconds };
  }

  async unban(range: IpRange): Promise<{ ip_address: string; was_banned: boolean }> {
    const until = await deleteBan(this.database.db, range.text);
    if (until !== null) await this.changed();
    return { ip_address: range.text, was_banned: until !== null && Date.parse(until) > Date.now() };
  }

  /**
   * The stored ban of this address or range, or for one address the longest stored range ban covering it.
   * Reported from the database even for whitelisted addresses (their bans are stored, just not enforced).
   */
  async status(range: IpRange): Promise<BanStatus> {
    const now = Date.now();
    const covering = (ban: BanEntry) =>
      ban.ip_address === range.text || (!range.text.includes('/') && ban.ip_address.includes('/') && new IpMatcher([ban.ip_address]).matches(range.text));
    const ban = (await activeBans(this.database.db, new Date(now).toISOString())).find(covering);
    if (!ban) return { ip_address: range.text, is_banned: false, banned_until: null, remaining_seconds: 0 };
    return {
      ip_address: range.text,
      is_banned: true,
      banned_until: ban.banned_until,
      remaining_seconds: Math.max(0, Math.ceil((Date.parse(ban.banned_until) - now) / 1000)),
    };
  }

  listBans(): Promise<BanEntry[]> {
    return activeBans(this.database.db, new Date().toISOString());
  }

  async whitelist(range: IpRange, description: string | undefined): Promise<WhitelistEntry> {
    const entry = await upsertWhitelist(this.database.db, range.text, description, new Date().toISOString());
    await this.changed();
    return entry;
  }

  async unwhitelist(range: IpRange): Promise<{ ip_address: string; was_whitelisted: boolean }> {
    const removed = await deleteWhitelist(this.database.db, range.text);
    if (removed) await this.changed();
    return { ip_address: range.text, was_whitelisted: removed };
  }

  listWhitelist(): Promise<WhitelistEntry[]> {
    return listWhitelist(this.database.db);
  }

  close(): Promise<void> {
    return this.sync.stop();
  }

  private async changed(): Promise<void> {
    await this.view.reload();
    this.sync.announce();
  }
}
