// Answers the resolver's needs from the database one small query at a time, so a cold GET loads only what the walk reads.
import { chunks } from '../../db/chunks.js';
import type { Executor } from '../../db/executor.js';
import { resolveWith, type Need, type ResolvableSource, type Resolution, type ResolveLimits } from './resolver.js';

export interface ServedSubscription {
  token: string;
  name: string;
  description: string | null;
  userId: number;
}

export interface DatabaseResolution extends Resolution {
  /** Owners of every loaded subscription (their deactivation changes the output). */
  owners: Set<number>;
}

/** The subscription to serve, or undefined when unknown or its owner is inactive. */
export async function findServable(db: Executor, token: string): Promise<ServedSubscription | undefined> {
  const row = await db
    .selectFrom('subscriptions')
    .innerJoin('users', 'users.user_id', 'subscriptions.user_id')
    .select(['subscriptions.token', 'subscriptions.name', 'subscriptions.description', 'subscriptions.user_id'])
    .where('subscriptions.token', '=', token)
    .where('users.is_active', '=', 1)
    .executeTakeFirst();
  return row && { token: row.token, name: row.name, description: row.description, userId: row.user_id };
}

export async function resolveFromDatabase(
  db: Executor,
  root: ServedSubscription,
  limits: ResolveLimits,
): Promise<DatabaseResolution> {
  const owners = new Set<number>([root.userId]);
  const sourcesCache = new Map<string, ResolvableSource[] | undefined>();
  const answer = async (need: Need): Promise<unknown> => {
    switch (need.kind) {
      case 'sources': {
        if (!sourcesCache.has(need.token)) {
          const active = need.token === root.token || (await isActive(db, need.token, owners));
          sourcesCache.set(need.token, active ? await loadSources(db, need.token) : undefined);
        }
        return sourcesCache.get(need.token);
      }
      case 'contentKeys':
        return contentKeys(db, need.urls);
      case 'lines':
        return loadLines(db, need.url);
    }
  };
  const resolution = await resolveWith(root.token, limits, answer);
  return { ...resolution, owners };
}

/** Whether a referenced subscription exists with an active owner; records the owner either way. */
async function isActive(db: Executor, token: string, owners: Set<number>): Promise<boolean> {
  const row = await db
    .selectFrom('subscriptions')
    .innerJoin('users', 'users.user_id', 'subscriptions.user_id')
    .select(['subscriptions.user_id', 'users.is_active'])
    .where('subscriptions.token', '=', token)
    .executeTakeFirst();
  if (!row) return false;
  owners.add(row.user_id);
  return row.is_active === 1;
}

async function loadSources(db: Executor, token: string): Promise<ResolvableSource[]> {
  const rows = await db
    .selectFrom('sources')
    .select(['source_type', 'data', 'ref_token', 'comment', 'is_hidden', 'max_depth'])
    .where('subscription_token', '=', token)
    .orderBy('order_index')
    .execute();
  return rows.map((row) => ({
    type: row.source_type as ResolvableSource['type'],
    data: row.source_type === 'internal_token' ? (row.ref_token ?? row.data) : row.data,
    comment: row.comment,
    isHidden: row.is_hidden === 1,
    maxDepth: row.max_depth,
  }));
}

/** For each URL with cached lines, its content hash (or the URL itself for rows stored before hashes). */
async function contentKeys(db: Executor, urls: string[]): Promise<Map<string, string>> {
  const keys = new Map<string, string>();
  for (const list of chunks(urls)) {
    const rows = await db
      .selectFrom('external_cache')
      .select(['url', 'content_hash'])
      .where('url', 'in', list)
      .where('content', 'is not', null)
      .execute();
    for (const row of rows) keys.set(row.url, row.content_hash ?? `url:${row.url}`);
  }
  return keys;
}

async function loadLines(db: Executor, url: string): Promise<string[]> {
  const row = await db.selectFrom('external_cache').select('content').where('url', '=', url).executeTakeFirst();
  return row?.content ? row.content.split('\n') : [];
}
