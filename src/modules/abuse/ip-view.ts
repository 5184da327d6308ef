// The in-memory copy of bans and the whitelist that every request is checked against without a database round trip.
import { IpMatcher, parseIpRange, type IpRange } from '../../net/ip.js';
import type { Executor } from '../../db/executor.js';
import { activeBans, listWhitelist } from './abuse.store.js';

interface RangeBan {
  range: IpRange;
  matcher: IpMatcher;
  until: number;
}

export class IpView {
  private whitelist = new IpMatcher([]);
  private exactBans = new Map<string, number>();
  private rangeBans: RangeBan[] = [];
  /** Every banned range at once, so the common case (not in any range) costs one lookup. */
  private anyRange = new IpMatcher([]);
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(private readonly db: Executor) {}

  isWhitelisted(ip: string): boolean {
    return this.whitelist.matches(ip);
  }

  /** When the ban covering `ip` ends (ms), or null when none is in force; expiry needs no clean-up job. */
  bannedUntil(ip: string, now = Date.now()): number | null {
    let until = this.exactBans.get(ip) ?? 0;
    if (this.rangeBans.length > 0 && this.anyRange.matches(ip)) {
      for (const range of this.rangeBans) {
        if (range.until > until && range.matcher.matches(ip)) until = range.until;
      }
    }
    return until > now ? until : null;
  }

  /** Applies one ban at once, ahead of the reload that will confirm it from the database. */
  addBan(ip: string, until: number): void {
    const range = parseIpRange(ip);
    if (!range) return;
    if (!range.text.includes('/')) {
      this.exactBans.set(range.text, Math.max(until, this.exactBans.get(range.text) ?? 0));
    } else {
      this.rangeBans = [...this.rangeBans, { range, matcher: new IpMatcher([range]), until }];
      this.anyRange = new IpMatcher(this.rangeBans.map((ban) => ban.range));
    }
  }

  /**
   * Re-reads both tables. Calls are serialised, and a call made while a load runs waits for a fresh load
   * after it, so a change committed before the call is always visible once the promise settles.
   */
  reload(): Promise<void> {
    if (this.queued) return this.queued;
    if (this.running) {
      this.queued = this.running
        .catch(() => undefined)
        .then(() => {
          this.queued = null;
          return this.start();
        });
      return this.queued;
    }
    return this.start();
  }

  private start(): Promise<void> {
    this.running = this.load().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async load(): Promise<void> {
    const [bans, whitelist] = await Promise.all([
      activeBans(this.db, new Date().toISOString()),
      listWhitelist(this.db),
    ]);
    const exact = new Map<string, number>();
    const ranges: RangeBan[] = [];
    for (const ban of bans) {
      const range = parseIpRange(ban.ip_address);
      if (!range) continue;
      const until = Date.parse(ban.banned_until);
      if (range.text.includes('/')) ranges.push({ range, matcher: new IpMatcher([range]), until });
      else exact.set(range.text, until);
    }
    this.whitelist = new IpMatcher(whitelist.flatMap((entry) => parseIpRange(entry.ip_address) ?? []));
    this.exactBans = exact;
    this.rangeBans = ranges;
    this.anyRange = new IpMatcher(ranges.map((ban) => ban.range));
  }
}
