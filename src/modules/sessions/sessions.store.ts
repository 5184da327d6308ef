// Database access for browser sessions and sign-in links; both are stored only as SHA-256 hashes (docs/security.md).
import type { Executor } from '../../db/executor.js';

export interface SessionRecord {
  user_id: number;
  is_active: boolean;
  expires_at: string;
  last_seen: string;
}

export async function insertSession(
  db: Executor,
  row: { id_hash: string; user_id: number; created_at: string; expires_at: string },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ ...row, last_seen: row.created_at })
    .execute();
}

/** The session with this hash that has not expired at `now`, with whether its user is active. */
export async function findLiveSession(db: Executor, idHash: string, now: string): Promise<SessionRecord | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.user_id', 'sessions.user_id')
    .select(['sessions.user_id', 'users.is_active', 'sessions.expires_at', 'sessions.last_seen'])
    .where('sessions.id_hash', '=', idHash)
    .where('sessions.expires_at', '>', now)
    .executeTakeFirst();
  return row && { ...row, user_id: Number(row.user_id), is_active: row.is_active === 1 };
}

/** Slides the expiry unless another request did since `seenBefore`; true when this call wrote it. */
export async function extendSession(
  db: Executor,
  idHash: string,
  seenBefore: string,
  now: string,
  expiresAt: string,
): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ last_seen: now, expires_at: expiresAt })
    .where('id_hash', '=', idHash)
    .where('last_seen', '<', seenBefore)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteSession(db: Executor, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
}

/** Ends every session of the user and voids their unused sign-in links (token refresh, disabling, deletion). */
export async function endUserSessions(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  await db.deleteFrom('sign_in_links').where('user_id', '=', userId).execute();
}

export async function insertSignInLink(
  db: Executor,
  row: { code_hash: string; user_id: number; created_at: string; expires_at: string; minted_by: string },
): Promise<void> {
  await db
    .insertInto('sign_in_links')
    .values({ ...row, used_at: null })
    .execute();
}

/**
 * Marks the link used if it is unused and unexpired at `now`, in one statement, so of two concurrent sign-ins with
 * one code exactly one gets the user id; undefined for the other, and for an unknown, used or expired code.
 */
export async function takeSignInLink(db: Executor, codeHash: string, now: string): Promise<number | undefined> {
  const row = await db
    .updateTable('sign_in_links')
    .set({ used_at: now })
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row && Number(row.user_id);
}

/** Deletes sessions and links that expired before `now` (housekeeping). */
export async function pruneSessions(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  await db.deleteFrom('sign_in_links').where('expires_at', '<=', now).execute();
}
