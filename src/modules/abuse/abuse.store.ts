// Database access for bans and the whitelist, the source of truth behind the in-memory view every instance keeps.
import type { Executor } from '../../db/executor.js';

export interface BanEntry {
  ip_address: string;
  banned_until: string;
  /** `admin` (the admin API) or `rate_limit` (the automatic ban); null for rows written before reasons existed. */
  reason: string | null;
  banned_at: string;
}

export interface WhitelistEntry {
  ip_address: string;
  description: string;
  added_at: string;
}

/** Creates or replaces a ban; created_at is refreshed too. */
export async function upsertBan(
  db: Executor,
  ip: string,
  bannedUntil: string,
  reason: string,
  now: string,
): Promise<void> {
  await db
    .insertInto('bans')
    .values({ ip_address: ip, banned_until: bannedUntil, reason, created_at: now })
    .onConflict((oc) => oc.column('ip_address').doUpdateSet({ banned_until: bannedUntil, reason, created_at: now }))
    .execute();
}

/** Removes a stored ban; answers the removed entry's banned_until, or null when there was none. */
export async function deleteBan(db: Executor, ip: string): Promise<string | null> {
  const row = await db.deleteFrom('bans').where('ip_address', '=', ip).returning('banned_until').executeTakeFirst();
  return row?.banned_until ?? null;
}

/** Bans still in force at `now`, soonest expiry last so a listing shows the longest bans first. */
export async function activeBans(db: Executor, now: string): Promise<BanEntry[]> {
  return db
    .selectFrom('bans')
    .select(['ip_address', 'banned_until', 'reason', 'created_at as banned_at'])
    .where('banned_until', '>', now)
    .orderBy('banned_until', 'desc')
    .orderBy('ip_address')
    .execute();
}

/** Drops bans that ended more than `before`; they no longer matter to anyone. */
export async function pruneBans(db: Executor, before: string): Promise<void> {
  await db.deleteFrom('bans').where('banned_until', '<', before).execute();
}

/** Adds an entry; re-adding keeps added_at and replaces the description only when one is given. */
export async function upsertWhitelist(
  db: Executor,
  ip: string,
  description: string | undefined,
  now: string,
): Promise<WhitelistEntry> {
  await db
    .insertInto('whitelist')
    .values({ ip_address: ip, description: description ?? '', added_at: now })
    .onConflict((oc) =>
      description === undefined
        ? oc.column('ip_address').doNothing()
        : oc.column('ip_address').doUpdateSet({ description }),
    )
    .execute();
  return db
    .selectFrom('whitelist')
    .select(['ip_address', 'description', 'added_at'])
    .where('ip_address', '=', ip)
    .executeTakeFirstOrThrow();
}

export async function deleteWhitelist(db: Executor, ip: string): Promise<boolean> {
  const result = await db.deleteFrom('whitelist').where('ip_address', '=', ip).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listWhitelist(db: Executor): Promise<WhitelistEntry[]> {
  return db
    .selectFrom('whitelist')
    .select(['ip_address', 'description', 'added_at'])
    .orderBy('added_at')
    .orderBy('ip_address')
    .execute();
}
