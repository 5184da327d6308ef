// Answers the resolver's needs from the database one small query at a time, so a cold GET loads only what the walk reads.
import { chunks } from '../../db/chunks.js';
import type { SourceRow } from '../../db/types.js';
import { fetchKey } from '../fetch/fetch-options.js';
import type { Executor } from '../../db/executor.js';
import type { Userinfo } from '../../shared/userinfo.js';
import type { UserinfoMode } from '../subscriptions/link-settings.js';
import { PARSED_FORM_VERSION, readStoredForm } from '../../formats/share-uri/stored.js';
import type { ParseResult } from '../../formats/proxy.js';
import { configForm, storedConfigLine, type ConfigForm } from '../sources/config-form.js';
import {
  resolveWith,
  type Need,
  type ResolvableSource,
  type Chain,
  type Resolution,
  type ResolveLimits,
  type UpstreamLines,
} from './resolver.js';
import { chainOf } from '../transforms/stored.js';

export interface ServedSubscription {
  token: string;
  name: string;
  description: string | null;
  userId: number;
  /** ISO time of the last change of the subscription or its sources. */
  updatedAt: string;
  updateIntervalHours: number;
  supportUrl: string | null;
  webPageUrl: string | null;
  announce: string | null;
  /** The stored transform chain (JSON), or null. */
  transforms: string | null;
  /** Where the usage header comes from; `fixed` holds the numbers of mode fixed (missing ones 0). */
  userinfo: { mode: UserinfoMode; fixed: Userinfo };
}

export interface DatabaseResolution extends Resolution {
  /** Owners of every loaded subscription (their deactivation changes the output). */
  owners: Set<number>;
  /** Config rows read without a stored form of this version, with the form made for them (see storeConfigForms). */
  upgrades: ConfigUpgrade[];
}

export interface ConfigUpgrade {
  token: string;
  id: string;
  form: ConfigForm;
}

/** The subscription to serve, or undefined when unknown or its owner is inactive. */
export async function findServable(db: Executor, token: string): Promise<ServedSubscription | undefined> {
  const row = await db
    .selectFrom('subscriptions')
    .innerJoin('users', 'users.user_id', 'subscriptions.user_id')
    .selectAll('subscriptions')
    .where('subscriptions.token', '=', token)
    .where('users.is_active', '=', 1)
    .executeTakeFirst();
  return (
    row && {
      token: row.token,
      name: row.name,
      description: row.description,
      userId: row.user_id,
      updatedAt: row.updated_at,
      updateIntervalHours: row.update_interval_hours,
      supportUrl: row.support_url,
      webPageUrl: row.web_page_url,
      announce: row.announce,
      transforms: row.transforms,
      userinfo: {
        mode: row.userinfo_mode,
        fixed: {
          upload: row.userinfo_upload ?? 0,
          download: row.userinfo_download ?? 0,
          total: row.userinfo_total ?? 0,
          expire: row.userinfo_expire ?? 0,
        },
      },
    }
  );
}

/** The usage numbers each of `urls` carried with its last good content, in the order of `urls`, skipping the others. */
export async function upstreamUserinfo(db: Executor, urls: string[]): Promise<Userinfo[]> {
  const byUrl = new Map<string, Userinfo>();
  for (const list of chunks(urls)) {
    const rows = await db
      .selectFrom('external_cache')
      .select(['url', 'userinfo_upload', 'userinfo_download', 'userinfo_total', 'userinfo_expire'])
      .where('url', 'in', list)
      .where('userinfo_upload', 'is not', null)
      .execute();
    for (const row of rows) {
      byUrl.set(row.url, {
        upload: row.userinfo_upload ?? 0,
        download: row.userinfo_download ?? 0,
        total: row.userinfo_total ?? 0,
        expire: row.userinfo_expire ?? 0,
      });
    }
  }
  return urls.flatMap((url) => byUrl.get(url) ?? []);
}

export async function resolveFromDatabase(
  db: Executor,
  root: ServedSubscription,
  limits: ResolveLimits,
  /** Runs instead of the root's stored chain, null: none (the preview of an unsaved chain). */
  rootChain?: Chain | null,
): Promise<DatabaseResolution> {
  const owners = new Set<number>([root.userId]);
  const upgrades: ConfigUpgrade[] = [];
  const chains = new Map<string, string | null>([[root.token, root.transforms]]);
  const loaded = new Map<string, ResolvableSource[] | undefined>([
    [root.token, await loadSources(db, [root.token], upgrades).then((m) => m.get(root.token) ?? [])],
  ]);
  const answer = async (need: Need): Promise<unknown> => {
    switch (need.kind) {
      case 'sources': {
        // One level of look-ahead: the sources of every subscription this one references, in a few chunked
        // queries, instead of two queries per subscription as the walk reaches it.
        const sources = loaded.get(need.token);
        if (sources && need.depth < limits.maxNestingDepth) {
          const children = [...new Set(sources.filter((s) => s.type === 'internal_token').map((s) => s.data))];
          await loadReferenced(
            db,
            children.filter((token) => !loaded.has(token)),
            { owners, loaded, upgrades, chains },
          );
        }
        return sources;
      }
      case 'chain':
        if (rootChain !== undefined && need.token === root.token) return rootChain ?? undefined;
        return chainOf(chains.get(need.token) ?? null, limits.maxResolvedConfigs);
      case 'contentKeys':
        return contentKeys(db, need.urls);
      case 'lines':
        return loadLines(db, need.url);
    }
  };
  const resolution = await resolveWith(root.token, limits, answer);
  return { ...resolution, owners, upgrades };
}

/** Loads the sources of referenced subscriptions that exist with an active owner (undefined for the others). */
async function loadReferenced(
  db: Executor,
  tokens: string[],
  into: {
    owners: Set<number>;
    loaded: Map<string, ResolvableSource[] | undefined>;
    upgrades: ConfigUpgrade[];
    chains: Map<string, string | null>;
  },
): Promise<void> {
  const { owners, loaded, upgrades, chains } = into;
  for (const list of chunks(tokens)) {
    for (const token of list) loaded.set(token, undefined);
    const rows = await db
      .selectFrom('subscriptions')
      .innerJoin('users', 'users.user_id', 'subscriptions.user_id')
      .select(['subscriptions.token', 'subscriptions.user_id', 'subscriptions.transforms', 'users.is_active'])
      .where('subscriptions.token', 'in', list)
      .execute();
    for (const row of rows) {
      owners.add(row.user_id);
      chains.set(row.token, row.transforms);
    }
    const active = rows.filter((row) => row.is_active === 1).map((row) => row.token);
    for (const [token, sources] of await loadSources(db, active, upgrades)) loaded.set(token, sources);
  }
}

/** A config row without a usable stored form gets one made here, added to `upgrades`. */
async function loadSources(
  db: Executor,
  tokens: string[],
  upgrades: ConfigUpgrade[],
): Promise<Map<string, ResolvableSource[]>> {
  const byToken = new Map<string, ResolvableSource[]>(tokens.map((token) => [token, []]));
  for (const list of chunks(tokens)) {
    const rows = await db
      .selectFrom('sources')
      .select([
        'subscription_token',
        'id',
        'source_type',
        'data',
        'fetch_options',
        'ref_token',
        'comment',
        'is_hidden',
        'max_depth',
        'line',
        'parsed',
        'parsed_comment',
        'parsed_version',
      ])
      .where('subscription_token', 'in', list)
      .orderBy('subscription_token')
      .orderBy('order_index')
      .execute();
    for (const row of rows) {
      byToken.get(row.subscription_token)?.push({
        type: row.source_type,
        data: sourceData(row),
        comment: row.comment,
        isHidden: row.is_hidden === 1,
        maxDepth: row.max_depth,
        stored: row.source_type === 'config' ? configLine(row, upgrades) : null,
      });
    }
  }
  return byToken;
}

function configLine(
  row: ConfigForm & Pick<SourceRow, 'subscription_token' | 'id' | 'data' | 'comment'>,
  upgrades: ConfigUpgrade[],
) {
  const stored = storedConfigLine(row);
  if (stored) return stored;
  const form = configForm(row.data, row.comment);
  upgrades.push({ token: row.subscription_token, id: row.id, form });
  return storedConfigLine({ ...form, comment: row.comment });
}

/**
 * Stores the forms a resolution made for config rows that had none of this version. A row whose form is of a newer
 * version (written by a newer instance) keeps it; a form made for an older comment is never read (parsed_comment).
 */
export async function storeConfigForms(db: Executor, upgrades: readonly ConfigUpgrade[]): Promise<void> {
  for (const { token, id, form } of upgrades) {
    await db
      .updateTable('sources')
      .set(form)
      .where('subscription_token', '=', token)
      .where('id', '=', id)
      .where((eb) => eb.or([eb('parsed_version', 'is', null), eb('parsed_version', '<=', PARSED_FORM_VERSION)]))
      .execute();
  }
}

/** What the walk keys a source by: the referenced token, the fetch key of an upstream, or the config URI. */
function sourceData(row: Pick<SourceRow, 'source_type' | 'data' | 'fetch_options' | 'ref_token'>): string {
  if (row.source_type === 'internal_token') return row.ref_token ?? row.data;
  if (row.source_type === 'external_url') return fetchKey(row.data, row.fetch_options);
  return row.data;
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

/** The stored lines of `url`, with their stored parse results when those were made for this content and version. */
async function loadLines(db: Executor, url: string): Promise<UpstreamLines> {
  const row = await db
    .selectFrom('external_cache')
    .select(['content', 'content_hash', 'parsed', 'parsed_hash', 'parsed_version'])
    .where('url', '=', url)
    .executeTakeFirst();
  if (!row?.content) return { lines: [] };
  const lines = row.content.split('\n');
  const { parsed } = row;
  const current = row.parsed_version === PARSED_FORM_VERSION && row.content_hash !== null;
  if (parsed === null || !current || row.parsed_hash !== row.content_hash) return { lines };
  let forms: unknown[] | undefined;
  const read = (index: number): ParseResult => {
    forms ??= JSON.parse(parsed) as unknown[];
    return readStoredForm(forms[index], lines[index] as string);
  };
  return { lines, parsed: read };
}
