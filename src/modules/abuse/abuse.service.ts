// Bans and the whitelist as operations: write the database and the change log, which updates every instance's view.
import type { ChangeLog } from '../../changes/change-log.js';
import type { DatabaseHandle } from '../../db/database.js';
import { IpMatcher, type IpRange } from '../../net/ip.js';
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
import { adminEvent } from '../../events/subjects.js';

export interface BanStatus {
  ip_address: string;
  is_banned: boolean;
  banned_until: string | null;
  remaining_seconds: number;
}

export class AbuseControls {
  private constructor(
    private readonly database: DatabaseHandle,
    readonly view: IpView,
    private readonly changes: ChangeLog,
  ) {}

  /** Loads the view and keeps it current from the change log (this instance's writes and every other's). */
  static async start(database: DatabaseHandle, changes: ChangeLog): Promise<AbuseControls> {
    const view = new IpView(database.db);
    await changes.keepLoaded(['bans', 'whitelist'], () => view.reload());
    return new AbuseControls(database, view, changes);
  }

  async ban(
    range: IpRange,
    seconds: number,
    reason: string,
  ): Promise<{ ip_address: string; banned_until: string; remaining_seconds: number }> {
    const now = Date.now();
    const until = new Date(now + seconds * 1000).toISOString();
    this.view.addBan(range.text, now + seconds * 1000);
    await this.changes.write(async (trx, record, emit) => {
      await pruneBans(trx, new Date(now).toISOString());
      await upsertBan(trx, range.text, until, reason, new Date(now).toISOString());
      record({ kind: 'bans' });
      const data = { ip_address: range.text, banned_until: until, reason };
      emit(adminEvent('ban.created', `ban:${range.text}`, data));
    });
    return { ip_address: range.text, banned_until: until, remaining_seconds: seconds };
  }

  async unban(range: IpRange): Promise<{ ip_address: string; was_banned: boolean }> {
    const until = await this.changes.write(async (trx, record, emit) => {
      const deleted = await deleteBan(trx, range.text);
      if (deleted !== null) record({ kind: 'bans' });
      if (deleted !== null) emit(adminEvent('ban.deleted', `ban:${range.text}`, { ip_address: range.text }));
      return deleted;
    });
    return { ip_address: range.text, was_banned: until !== null && Date.parse(until) > Date.now() };
  }

  /**
   * The stored ban of this address or range, or for one address the longest stored range ban covering it.
   * Reported from the database even for whitelisted addresses (their bans are stored, just not enforced).
   */
  async status(range: IpRange): Promise<BanStatus> {
    const now = Date.now();
    const covering = (ban: BanEntry) =>
      ban.ip_address === range.text ||
      (!range.text.includes('/') &&
        ban.ip_address.includes('/') &&
        new IpMatcher([ban.ip_address]).matches(range.text));
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
    return this.changes.write(async (trx, record, emit) => {
      record({ kind: 'whitelist' });
      emit(adminEvent('whitelist.changed', `whitelist:${range.text}`, { ip_address: range.text, added: true }));
      return upsertWhitelist(trx, range.text, description, new Date().toISOString());
    });
  }

  async unwhitelist(range: IpRange): Promise<{ ip_address: string; was_whitelisted: boolean }> {
    const removed = await this.changes.write(async (trx, record, emit) => {
      const deleted = await deleteWhitelist(trx, range.text);
      if (deleted) record({ kind: 'whitelist' });
      const data = { ip_address: range.text, added: false };
      if (deleted) emit(adminEvent('whitelist.changed', `whitelist:${range.text}`, data));
      return deleted;
    });
    return { ip_address: range.text, was_whitelisted: removed };
  }

  listWhitelist(): Promise<WhitelistEntry[]> {
    return listWhitelist(this.database.db);
  }
}
