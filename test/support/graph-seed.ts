// Writes large reference graphs and upstream cache rows straight into the database in bulk, for bound tests and benchmarks.
import { createHash } from 'node:crypto';
import type { Executor } from '../../src/db/executor.js';
import type { NewSource } from '../../src/db/types.js';
import { newToken } from '../../src/shared/tokens.js';

const ROWS_PER_INSERT = 500;

export interface SeededSource {
  type: 'config' | 'external_url' | 'internal_token';
  /** URI, URL or referenced token. */
  data: string;
}

/** Inserts rows in statements of at most ROWS_PER_INSERT rows (each binds ~11 variables). */
async function insertAll<T>(insert: (rows: T[]) => Promise<unknown>, rows: T[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) await insert(rows.slice(i, i + ROWS_PER_INSERT));
}

export async function seedSubscriptions(db: Executor, userId: number, count: number): Promise<string[]> {
  const now = new Date().toISOString();
  const rows = Array.from({ length: count }, (_, i) => ({
    token: newToken(),
    user_id: userId,
    provider_hash: null,
    scope: '',
    name: `seeded-${i}-${newToken().slice(0, 8)}`,
    description: null,
    created_at: now,
    updated_at: now,
  }));
  await insertAll((list) => db.insertInto('subscriptions').values(list).execute(), rows);
  return rows.map((r) => r.token);
}

export async function seedSources(db: Executor, token: string, sources: SeededSource[]): Promise<void> {
  const now = new Date().toISOString();
  const rows: NewSource[] = sources.map((s, i) => ({
    subscription_token: token,
    id: createHash('sha256').update(`${s.type}:${s.data}`).digest('hex').slice(0, 32),
    source_type: s.type,
    data: s.data,
    ref_token: s.type === 'internal_token' ? s.data : null,
    comment: null,
    is_hidden: 0,
    max_depth: 3,
    order_index: i,
    created_at: now,
    updated_at: now,
  }));
  await insertAll((list) => db.insertInto('sources').values(list).execute(), rows);
}

/** Cache rows as a successful fetch stores them; `linesOf(url)` gives each URL's stored lines. */
export async function seedCache(
  db: Executor,
  urls: string[],
  linesOf: (url: string, index: number) => string[],
): Promise<void> {
  const now = new Date().toISOString();
  const batch = Math.max(1, Math.floor(ROWS_PER_INSERT / 10));
  for (let i = 0; i < urls.length; i += batch) {
    const rows = urls.slice(i, i + batch).map((url, offset) => {
      const content = linesOf(url, i + offset).join('\n');
      return {
        url,
        content,
        content_hash: createHash('sha256').update(content).digest('base64url'),
        configs_count: content === '' ? 0 : content.split('\n').length,
        fetched_at: now,
        last_attempt_at: now,
        created_at: now,
      };
    });
    await db.insertInto('external_cache').values(rows).execute();
  }
}

/** `count` distinct trojan lines for `label`, each with its own #remark (about 90 bytes a line). */
export function distinctLines(label: string, count: number, remark = label): string[] {
  return Array.from(
    { length: count },
    (_, i) => `trojan://pw${i}@${label}-${i}.example.net:443?sni=example.org#${remark}-${i}`,
  );
}

export interface DiamondGraph {
  root: string;
  /** Subscription tokens per level (level 0 = [root]). */
  levels: string[][];
  urls: string[];
}

/**
 * The heaviest shape a link can reach: every subscription holds `sourcesPerSubscription` sources, the first
 * `width` of them references to every subscription of the next level (each owned by another user, so the graph
 * is a lattice of diamonds across users), the rest external URLs of its own. Levels go down to `depth`.
 */
export async function seedDiamondGraph(
  db: Executor,
  options: { owners: number[]; width: number; depth: number; sourcesPerSubscription: number; urlBase: string },
): Promise<DiamondGraph> {
  const { owners, width, depth, sourcesPerSubscription, urlBase } = options;
  const ownerOf = (level: number, i: number) => owners[(level * width + i) % owners.length] as number;
  const levels: string[][] = [];
  for (let level = 0; level <= depth; level++) {
    const count = level === 0 ? 1 : width;
    const tokens: string[] = [];
    for (let i = 0; i < count; i++) tokens.push(...(await seedSubscriptions(db, ownerOf(level, i), 1)));
    levels.push(tokens);
  }
  const urls: string[] = [];
  for (let level = 0; level <= depth; level++) {
    for (const token of levels[level] ?? []) {
      const refs = level < depth ? (levels[level + 1] ?? []) : [];
      const own = Array.from({ length: sourcesPerSubscription - refs.length }, (_, i) => `${urlBase}/${token}/${i}`);
      urls.push(...own);
      await seedSources(db, token, [
        ...refs.map((data) => ({ type: 'internal_token' as const, data })),
        ...own.map((data) => ({ type: 'external_url' as const, data })),
      ]);
    }
  }
  return { root: levels[0]?.[0] as string, levels, urls };
}
