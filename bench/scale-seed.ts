// Writes the scale benchmark's users, subscriptions, sources and upstream cache straight into PostgreSQL in bulk (one unnest INSERT per batch), far faster than the API.
import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { hashToken } from '../src/shared/tokens.js';
import {
  EXTERNAL_EVERY,
  SUBSCRIPTIONS_PER_USER,
  ownerOf,
  subscriptionSources,
  subscriptionToken,
  upstreamLines,
  upstreamUrl,
  userId,
  userToken,
} from './scale-data.js';

/** Rows per INSERT statement: large enough that round trips do not matter, small enough to stay well under 100 MB. */
const BATCH_ROWS = 20_000;
/** Fixed creation times (1 ms apart by index) keep list order and the data identical across runs. */
const EPOCH = Date.parse('2026-01-01T00:00:00.000Z');

type Column = [name: string, type: string];

async function insertColumns(client: pg.ClientBase, table: string, columns: Column[], rows: unknown[][]) {
  for (let start = 0; start < rows.length; start += BATCH_ROWS) {
    const batch = rows.slice(start, start + BATCH_ROWS);
    const arrays = columns.map((_, c) => batch.map((row) => row[c]));
    const names = columns.map(([name]) => name).join(', ');
    const unnest = columns.map(([, type], c) => `$${c + 1}::${type}[]`).join(', ');
    await client.query(`insert into ${table} (${names}) select * from unnest(${unnest})`, arrays);
  }
}

/** How many users (from index 0) the database already holds; creates the benchmark's bookkeeping table. */
export async function seededUsers(client: pg.ClientBase): Promise<number> {
  await client.query('create table if not exists scale_bench_seeded (users integer not null)');
  const { rows } = await client.query<{ users: number }>('select max(users) as users from scale_bench_seeded');
  return rows[0]?.users ?? 0;
}

/**
 * Adds users [from, to) with their subscriptions, sources and the upstream cache they name, in one transaction
 * that also records how far the data goes, then refreshes the planner's statistics. Returns the rows written.
 */
export async function seedUsers(
  client: pg.ClientBase,
  from: number,
  to: number,
): Promise<{ users: number; subscriptions: number; sources: number; upstreams: number }> {
  const time = (ms: number) => new Date(EPOCH + ms).toISOString();
  const users: unknown[][] = [];
  const subscriptions: unknown[][] = [];
  const sources: unknown[][] = [];
  const cache: unknown[][] = [];
  for (let user = from; user < to; user++) {
    users.push([userId(user), randomUUID(), hashToken(userToken(user)), time(user), time(user)]);
  }
  for (let sub = from * SUBSCRIPTIONS_PER_USER; sub < to * SUBSCRIPTIONS_PER_USER; sub++) {
    const token = subscriptionToken(sub);
    subscriptions.push([token, userId(ownerOf(sub)), '', `sub ${sub}`, time(sub), time(sub)]);
    subscriptionSources(sub).forEach((source, index) => {
      const at = time(sub);
      sources.push([token, source.id, source.type, source.data, source.refToken, source.comment, index, at, at]);
    });
    if (sub % EXTERNAL_EVERY === 0) {
      const content = upstreamLines(sub).join('\n');
      const hash = createHash('sha256').update(content).digest('base64url');
      const count = content.split('\n').length;
      cache.push([upstreamUrl(sub), content, hash, count, time(sub), time(sub), time(sub)]);
    }
  }
  await client.query('begin');
  try {
    await insertColumns(
      client,
      'users',
      [
        ['user_id', 'bigint'],
        ['user_hash', 'text'],
        ['token_hash', 'text'],
        ['created_at', 'text'],
        ['updated_at', 'text'],
      ],
      users,
    );
    await insertColumns(
      client,
      'subscriptions',
      [
        ['token', 'text'],
        ['user_id', 'bigint'],
        ['scope', 'text'],
        ['name', 'text'],
        ['created_at', 'text'],
        ['updated_at', 'text'],
      ],
      subscriptions,
    );
    await insertColumns(
      client,
      'sources',
      [
        ['subscription_token', 'text'],
        ['id', 'text'],
        ['source_type', 'text'],
        ['data', 'text'],
        ['ref_token', 'text'],
        ['comment', 'text'],
        ['order_index', 'integer'],
        ['created_at', 'text'],
        ['updated_at', 'text'],
      ],
      sources,
    );
    await insertColumns(
      client,
      'external_cache',
      [
        ['url', 'text'],
        ['content', 'text'],
        ['content_hash', 'text'],
        ['configs_count', 'integer'],
        ['fetched_at', 'text'],
        ['last_attempt_at', 'text'],
        ['created_at', 'text'],
      ],
      cache,
    );
    await client.query('insert into scale_bench_seeded (users) values ($1)', [to]);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
  await client.query('analyze');
  return { users: users.length, subscriptions: subscriptions.length, sources: sources.length, upstreams: cache.length };
}
