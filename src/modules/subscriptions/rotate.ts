// Rotating a link (docs/api.md, Rotating a link): the subscription moves to a new token, and references to it follow.
import type { RecordChange } from '../../changes/change-log.js';
import type { Dialect } from '../../db/database.js';
import type { Executor } from '../../db/executor.js';
import { lockReferenceGraph } from '../../db/graph-lock.js';
import { errors } from '../../http/errors.js';
import { sourceId } from '../sources/classify.js';
import {
  deleteAllSources,
  insertSources,
  listSources,
  referenceHolders,
  retargetReferences,
} from '../sources/sources.store.js';
import {
  changeToken,
  findSubscription,
  lockSubscription,
  lockSubscriptions,
  touchSubscriptions,
} from './subscriptions.store.js';

/**
 * Moves subscription `from` to token `to` inside `trx`. The graph lock comes first: a concurrent write adding a
 * reference to `from` either commits before (and its reference is rewritten here) or finds `from` gone. The
 * subscription's own sources are taken out and put back under the new token, since they reference its row.
 */
export async function rotateToken(
  trx: Executor,
  dialect: Dialect,
  from: string,
  to: string,
  record: RecordChange,
): Promise<void> {
  await lockReferenceGraph(trx, dialect);
  await lockSubscription(trx, dialect, from);
  if (!(await findSubscription(trx, from))) throw errors.subscriptionNotFound();
  const holders = await referenceHolders(trx, from);
  await lockSubscriptions(trx, dialect, holders);
  for (const token of [from, to, ...holders]) record({ kind: 'subscription', token });

  const now = new Date().toISOString();
  const own = await listSources(trx, from);
  await deleteAllSources(trx, from);
  await changeToken(trx, from, to, now);
  await insertSources(
    trx,
    own.map((row) => ({ ...row, subscription_token: to })),
  );
  await retargetReferences(trx, from, to, sourceId('internal_token', to), now);
  await touchSubscriptions(trx, holders, now);
}
