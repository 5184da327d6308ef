// Reads and writes of source_health: the failed fetches in a row of each fetch key.
import type { Executor } from '../../db/executor.js';

export async function failuresInRow(db: Executor, key: string): Promise<number | undefined> {
  const row = await db.selectFrom('source_health').select('failures').where('fetch_key', '=', key).executeTakeFirst();
  return row?.failures;
}

/** Stores the count; 0 removes the row. `existed`: whether a row is there (read under the cache row's lock). */
export async function setFailuresInRow(
  db: Executor,
  key: string,
  failures: number,
  existed: boolean,
  now: string,
): Promise<void> {
  if (failures === 0) await db.deleteFrom('source_health').where('fetch_key', '=', key).execute();
  else if (existed) {
    await db.updateTable('source_health').set({ failures, updated_at: now }).where('fetch_key', '=', key).execute();
  } else await db.insertInto('source_health').values({ fetch_key: key, failures, updated_at: now }).execute();
}
