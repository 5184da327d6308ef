// Database access for statistics: the additive request-count upsert and the read-only aggregate queries.
import type { Executor } from '../../db/executor.js';
import type { RequestKind } from '../../http/route-kind.js';

export interface RequestCountRow {
  bucket_start: string;
  kind: RequestKind;
  count: number;
}

/** Adds the counts to the stored ones in one statement, so instances flushing concurrently never lose increments. */
export async function addRequestCounts(db: Executor, rows: RequestCountRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('request_counts')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['bucket_start', 'kind']).doUpdateSet((eb) => ({
        count: eb('request_counts.count', '+', eb.ref('excluded.count')),
      })),
    )
    .execute();
}

/** Request totals per kind over the hourly buckets whose start lies in [firstBucket, lastBucket] (ISO text). */
export async function sumRequestsByKind(
  db: Executor,
  firstBucket: string,
  lastBucket: string,
): Promise<Map<RequestKind, number>> {
  const rows = await db
    .selectFrom('request_counts')
    .select(['kind', (eb) => eb.fn.sum<number | string>('count').as('total')])
    .where('bucket_start', '>=', firstBucket)
    .where('bucket_start', '<=', lastBucket)
    .groupBy('kind')
    .execute();
  // PostgreSQL sums bigint into numeric, which pg returns as a string.
  return new Map(rows.map((row) => [row.kind, Number(row.total)]));
}

export interface EntityCounts {
  total_users: number;
  total_subscriptions: number;
  total_providers: number;
  new_users: number;
  new_subscriptions: number;
}

type CreatedTable = 'users' | 'subscriptions' | 'providers';

/** Rows existing at `end` (created_at <= end) and rows created within [start, end]; ISO text compares in time order. */
export async function countEntities(db: Executor, start: string, end: string): Promise<EntityCounts> {
  const created = (table: CreatedTable, from: string | null) => {
    const query = db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('created_at', '<=', end);
    return from === null ? query : query.where('created_at', '>=', from);
  };
  const row = await db
    .selectNoFrom([
      created('users', null).as('total_users'),
      created('subscriptions', null).as('total_subscriptions'),
      created('providers', null).as('total_providers'),
      created('users', start).as('new_users'),
      created('subscriptions', start).as('new_subscriptions'),
    ])
    .executeTakeFirstOrThrow();
  return {
    total_users: Number(row.total_users),
    total_subscriptions: Number(row.total_subscriptions),
    total_providers: Number(row.total_providers),
    new_users: Number(row.new_users),
    new_subscriptions: Number(row.new_subscriptions),
  };
}

/** The earliest timestamp anything was recorded at (a request bucket or a created row), or null on an empty database. */
export async function firstActivity(db: Executor): Promise<string | null> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('request_counts')
        .select((q) => q.fn.min('bucket_start').as('t'))
        .as('requests'),
      eb
        .selectFrom('users')
        .select((q) => q.fn.min('created_at').as('t'))
        .as('users'),
      eb
        .selectFrom('subscriptions')
        .select((q) => q.fn.min('created_at').as('t'))
        .as('subscriptions'),
      eb
        .selectFrom('providers')
        .select((q) => q.fn.min('created_at').as('t'))
        .as('providers'),
    ])
    .executeTakeFirstOrThrow();
  const times = [row.requests, row.users, row.subscriptions, row.providers].filter(
    (t): t is string => typeof t === 'string',
  );
  return times.length === 0 ? null : times.reduce((a, b) => (b < a ? b : a));
}
