// Counts the failed fetches of each external source in a row, so events say when one starts failing and when it recovers.
import type { Executor } from '../../db/executor.js';
import type { Emit } from '../../events/event-types.js';
import { sourceId } from '../sources/classify.js';
import { splitFetchKey } from './fetch-options.js';
import { failuresInRow, setFailuresInRow } from './source-health.store.js';

/** Failed fetches in a row after which a source is reported failing. */
export const FAILING_AFTER = 3;

const REFRESHER = { kind: 'system', id: 'refresher' } as const;

/** Inside the fetch's write transaction (the cache row is locked, so one fetch of a key at a time gets here). */
export async function trackSourceHealth(
  trx: Executor,
  key: string,
  /** The failure in a word (timeout, http, empty, ...): an error text can name the URL. */
  failed: { reason: string } | null,
  emit: Emit,
  now: string,
): Promise<void> {
  const stored = await failuresInRow(trx, key);
  const before = stored ?? 0;
  const after = failed ? before + 1 : 0;
  if (after === before) return;
  await setFailuresInRow(trx, key, after, stored !== undefined, now);
  const data = { source_id: sourceId('external_url', key), host: hostOf(key), failures: before };
  if (failed && after === FAILING_AFTER)
    emit({ type: 'source.failing', actor: REFRESHER, data: { ...data, failures: after, reason: failed.reason } });
  if (!failed && before >= FAILING_AFTER) emit({ type: 'source.recovered', actor: REFRESHER, data });
}

/** The host alone: an upstream URL often carries a secret in its path or query. */
function hostOf(key: string): string {
  try {
    return new URL(splitFetchKey(key).url).hostname;
  } catch {
    return '';
  }
}
