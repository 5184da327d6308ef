// Reads a v2hub database (docs/migrating-from-v2hub.md) through a client of its own, in one read-only snapshot.
import pg from 'pg';
import { ImportError } from './report.js';

export interface V2hubUser {
  user_hash: string;
  /** bigint as text, checked by the mapping. */
  user_id: string | null;
  api_token: string | null;
  is_active: boolean;
  created_at: string | null;
}

export interface V2hubProvider {
  provider_hash: string;
  owner_hash: string;
  provider_name: string;
  api_token: string | null;
  provider_url: string | null;
  is_active: boolean;
  created_at: string | null;
}

export interface V2hubAuthorization {
  provider_hash: string;
  user_hash: string;
  status: string;
  created_at: string | null;
  updated_at: string | null;
}

export interface V2hubSubscription {
  token: string;
  name: string;
  user_hash: string;
  provider_hash: string | null;
  description: string | null;
  created_at: string | null;
  updated_at: string | null;
}

export interface V2hubSource {
  subscription_token: string;
  id: string;
  source_type: string;
  internal_token: string | null;
  external_url: string | null;
  /** proxy_configs.config_data joined through config_hash; null when the config row is gone. */
  config_data: string | null;
  /** config_comments.comment for (subscription, config); null when there is none. */
  comment: string | null;
  is_hidden: boolean;
  max_depth: number;
  order_index: number;
  created_at: string | null;
  updated_at: string | null;
}

export interface V2hubCache {
  url_hash: string;
  url: string;
  raw_content: string | null;
  fetched_at: string | null;
}

export interface V2hubData {
  users: V2hubUser[];
  providers: V2hubProvider[];
  authorizations: V2hubAuthorization[];
  subscriptions: V2hubSubscription[];
  sources: V2hubSource[];
  cache: V2hubCache[];
}

/** Every table of the v2hub schema; an importer refuses a database that lacks one. */
export const V2HUB_TABLES = [
  'users',
  'providers',
  'provider_authorizations',
  'subscriptions',
  'sources',
  'proxy_configs',
  'config_comments',
  'external_cache',
] as const;

/** A timestamptz column as ISO-8601 UTC text with milliseconds, the form subweave stores. */
function iso(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

const QUERIES = {
  users: `select user_hash, user_id::text as user_id, api_token, is_active, ${iso('created_at')} as created_at
    from users order by user_id, user_hash`,
  providers: `select provider_hash, owner_hash, provider_name, api_token, provider_url, is_active,
    ${iso('created_at')} as created_at from providers order by created_at, provider_hash`,
  authorizations: `select provider_hash, user_hash, status::text as status, ${iso('created_at')} as created_at,
    ${iso('updated_at')} as updated_at from provider_authorizations order by created_at, provider_hash, user_hash`,
  subscriptions: `select token, name, user_hash, provider_hash, description, ${iso('created_at')} as created_at,
    ${iso('updated_at')} as updated_at from subscriptions order by created_at, token`,
  sources: `select s.subscription_token, s.id, s.source_type, s.internal_token, s.external_url,
    p.config_data, c.comment, s.is_hidden, s.max_depth, s.order_index,
    ${iso('s.created_at')} as created_at, ${iso('s.updated_at')} as updated_at
    from sources s
    left join proxy_configs p on p.config_hash = s.config_hash
    left join config_comments c on c.subscription_token = s.subscription_token and c.config_hash = s.config_hash
    order by s.subscription_token, s.order_index, s.created_at, s.id`,
  cache: `select url_hash, url, raw_content, ${iso('fetched_at')} as fetched_at from external_cache order by url_hash`,
} as const;

/**
 * Connects to the v2hub database at `url`, checks that it has the v2hub tables and reads them all in one
 * repeatable-read, read-only transaction (a consistent snapshot, and nothing can be written by mistake).
 */
export async function readV2hub(url: string): Promise<V2hubData> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  // A connection dropped between queries must not end the process; the pending query rejects instead.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    throw new ImportError(`cannot connect to the v2hub database at ${where(url)}: ${messageOf(error)}`);
  }
  try {
    await client.query('begin isolation level repeatable read read only');
    const missing = await missingTables(client);
    if (missing.length > 0) {
      throw new ImportError(`not a v2hub database (${where(url)}): missing tables ${missing.join(', ')}`);
    }
    const read = async <T>(text: string): Promise<T[]> => {
      try {
        return (await client.query(text)).rows as T[];
      } catch (error) {
        throw new ImportError(`not a v2hub database (${where(url)}): ${messageOf(error)}`);
      }
    };
    const data: V2hubData = {
      users: await read<V2hubUser>(QUERIES.users),
      providers: await read<V2hubProvider>(QUERIES.providers),
      authorizations: await read<V2hubAuthorization>(QUERIES.authorizations),
      subscriptions: await read<V2hubSubscription>(QUERIES.subscriptions),
      sources: await read<V2hubSource>(QUERIES.sources),
      cache: await read<V2hubCache>(QUERIES.cache),
    };
    await client.query('commit');
    return data;
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(`reading the v2hub database at ${where(url)} failed: ${messageOf(error)}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Tables of the v2hub schema that the search path does not reach. */
async function missingTables(client: pg.Client): Promise<string[]> {
  const result = await client.query<{ name: string; present: boolean }>(
    'select name, to_regclass(name) is not null as present from unnest($1::text[]) as name',
    [V2HUB_TABLES],
  );
  return result.rows.filter((row) => !row.present).map((row) => row.name);
}

/** Host, port and database of a URL, never its password. */
function where(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'the given URL';
  }
}

function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return messageOf(error.errors[0]);
  const text =
    error instanceof Error ? error.message || (error as { code?: string }).code || error.name : String(error);
  return text.split('\n')[0] ?? text;
}
