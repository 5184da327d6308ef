// Reads the request history of a subscription: what every instance has written, plus this instance's unwritten part.
import type { Executor } from '../../db/executor.js';
import { HISTORY_LIMIT, listHistory, type HistoryRow } from './history.store.js';
import type { RequestHistory } from './request-history.js';
import type { RequestHistoryView } from './history.schemas.js';

export async function readHistory(db: Executor, history: RequestHistory, token: string): Promise<RequestHistoryView> {
  // Written first, so the read sees them; when the write fails they are still shown from memory.
  const unwritten = await history.flush().then(
    () => [],
    () => history.pendingRows(token),
  );
  const rows = [...(await listHistory(db, token)), ...unwritten]
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .slice(0, HISTORY_LIMIT);
  return { requests: rows.map(view) };
}

function view(row: HistoryRow): RequestHistoryView['requests'][number] {
  const { at, format, rule, status, user_agent, client, servers } = row;
  return { at, format, rule, status, user_agent, client, servers };
}
