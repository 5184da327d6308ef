// Database access for the admin signatures accepted within their window (replay-guard.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

/** Forgets every signature whose window ended by `now` (Unix ms). */
export async function pruneReplays(db: Kysely<Database>, now: number): Promise<void> {
  await db.deleteFrom('admin_replays').where('expires_at', '<=', now).execute();
}

/** Records a signature's hash; false when it is already recorded. Atomic on both dialects (ON CONFLICT DO NOTHING). */
export async function recordReplay(db: Kysely<Database>, signatureHash: string, expiresAt: number): Promise<boolean> {
  const inserted = await db
    .insertInto('admin_replays')
    .values({ signature_hash: signatureHash, expires_at: expiresAt })
    .onConflict((conflict) => conflict.column('signature_hash').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}
