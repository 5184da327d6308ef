// Loads everything one resolution needs in a handful of queries: a level of the reference graph per query.
import type { Executor } from '../../db/executor.js';
import type { ResolvableSource } from './resolver.js';

export interface ServedSubscription {
  token: string;
  name: string;
  description: string | null;
  userId: number;
}

export interface LoadedGraph {
  sources: Map<string, ResolvableSource[]>;
  external: Map<string, string[]>;
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

export async function loadGraph(db: Executor, root: ServedSubscription, maxDepth: number): Promise<LoadedGraph> {
  const sources = new Map<string, ResolvableSource[]>();
  const owners = new Set<number>([root.userId]);
  let level = [root.token];
  for (let depth = 0; level.length > 0 && depth <= maxDepth; depth++) {
    const rows = await db
      .selectFrom('sources')
      .select(['subscription_token', 'source_type', 'data', 'ref_token', 'comment', 'is_hidden', 'max_depth'])
      .where('subscription_token', 'in', level)
      .orderBy('subscription_token')
      .orderBy('order_index')
      .execute();
    for (const token of level) sources.set(token, []);
    for (const row of rows) {
      sources.get(row.subscription_token)?.push({
        type: row.source_type as ResolvableSource['type'],
        data: row.source_type === 'internal_token' ? (row.ref_token ?? row.data) : row.data,
        comment: row.comment,
        isHidden: row.is_hidden === 1,
        maxDepth: row.max_depth,
      });
    }
    const referenced = [...new Set(rows.filter((r) => r.ref_token !== null).map((r) => r.ref_token as string))];
    level = depth < maxDepth ? await activeSubscriptions(db, referenced.filter((t) => !sources.has(t)), owners) : [];
  }
  return { sources, external: await loadExternal(db, sources), owners };
}

/** Referenced tokens whose subscription exists and whose owner is active; records every owner, active or not. */
async function activeSubscriptions(db: Executor, tokens: string[], owners: Set<number>): Promise<string[]> {
  if (tokens.length === 0) return [];
  const rows = await db
    .selectFrom('subscriptions')
    .innerJoin('users', 'users.user_id', 'subscriptions.user_id')
    .select(['subscriptions.token', 'subscriptions.user_id', 'users.is_active'])
    .where('subscriptions.token', 'in', tokens)
    .execute();
  for (const row of rows) owners.add(row.user_id);
  return rows.filter((r) => r.is_active === 1).map((r) => r.token);
}

async function loadExternal(db: Executor, sources: Map<string, ResolvableSource[]>): Promise<Map<string, string[]>> {
  const urls = new Set<string>();
  for (const list of sources.values()) for (const s of list) if (s.type === 'external_url') urls.add(s.data);
  const external = new Map<string, string[]>();
  if (urls.size === 0) return external;
  const rows = await db.selectFrom('external_cache').select(['url', 'content']).where('url', 'in', [...urls]).execute();
  for (const row of rows) if (row.content) external.set(row.url, row.content.split('\n'));
  return external;
}
