// Database access for the request history: batched inserts pruned to the newest rows per subscription, and reads.
import type { Executor } from '../../db/executor.js';
import { inTransaction } from '../../db/executor.js';
import { chunks } from '../../db/chunks.js';
import type { Insertable, Selectable } from 'kysely';
import type { RequestHistoryTable } from '../../db/types.js';
import { existingTokens } from '../subscriptions/subscriptions.store.js';

export type HistoryRow = Omit<Selectable<RequestHistoryTable>, 'seq'>;

/** Rows kept per subscription. */
export const HISTORY_LIMIT = 100;

/**
 * Inserts the rows of subscriptions that still exist (a link deleted or rotated since the fetch drops its rows) and
 * prunes each touched subscription to its newest HISTORY_LIMIT rows, in one transaction.
 */
export async function addHistory(db: Executor, rows: HistoryRow[]): Promise<void> {
  if (rows.length === 0) return;
  await inTransaction(db, async (trx) => {
    const tokens = [...new Set(rows.map((row) => row.subscription_token))];
    const existing = await existingTokens(trx, tokens);
    const kept: Insertable<RequestHistoryTable>[] = rows.filter((row) => existing.has(row.subscription_token));
    for (const list of chunks(kept, 500)) await trx.insertInto('request_history').values(list).execute();
    for (const token of existing) {
      await trx
        .deleteFrom('request_history')
        .where('subscription_token', '=', token)
        .where(
          'seq',
          'not in',
          trx
            .selectFrom('request_history')
            .select('seq')
            .where('subscription_token', '=', token)
            .orderBy('at', 'desc')
            .orderBy('seq', 'desc')
            .limit(HISTORY_LIMIT),
        )
        .execute();
    }
  });
}

/** The newest HISTORY_LIMIT rows of a subscription, newest first. */
export async function listHistory(db: Executor, token: string): Promise<HistoryRow[]> {
  return db
    .selectFrom('request_history')
    .select(['subscription_token', 'at', 'format', 'rule', 'status', 'user_agent', 'client', 'servers'])
    .where('subscription_token', '=', token)
    .orderBy('at', 'desc')
    .orderBy('seq', 'desc')
    .limit(HISTORY_LIMIT)
    .execute();
}
