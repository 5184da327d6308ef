// Shapes stored subscription and source rows into the API's response objects.
import type { Config } from '../../config.js';
import type { Executor } from '../../db/executor.js';
import type { SourceRow } from '../../db/types.js';
import { encodeComment, vmessName } from '../../formats/share-uri/index.js';
import { listSources, listSourcesOf } from '../sources/sources.store.js';
import type { SourceView, SubscriptionListItem, SubscriptionView } from './subscriptions.schemas.js';
import { existingTokens, type SubscriptionWithProvider } from './subscriptions.store.js';
import type { RenderCache } from '../resolve/render-cache.js';
import type { CacheState, ExternalSources } from '../fetch/external-sources.js';
import { settingsView } from './link-settings.js';
import { fetchKey, fetchOptionsView } from '../fetch/fetch-options.js';
import { transformsOf } from '../transforms/stored.js';
import { publicLinks } from './public-links.js';

/** `last_error` of a reference whose subscription was deleted (it stays in the list and contributes nothing). */
export const SUBSCRIPTION_DELETED = 'subscription_deleted';

export class SubscriptionViews {
  constructor(
    private readonly db: Executor,
    private readonly config: Config,
    private readonly cache: RenderCache,
    private readonly external: ExternalSources,
  ) {}

  async full(subscription: SubscriptionWithProvider): Promise<SubscriptionView> {
    const [sources, count] = await Promise.all([
      listSources(this.db, subscription.token),
      this.servedLines(subscription),
    ]);
    const { cached, present } = await this.sourceStates(sources);
    return {
      ...this.item(subscription, count),
      sources: sources.map((s) => this.source(s, cached.get(sourceFetchKey(s)), present)),
    };
  }

  async listItems(rows: SubscriptionWithProvider[]): Promise<SubscriptionListItem[]> {
    const sources = await listSourcesOf(
      this.db,
      rows.map((row) => row.token),
    );
    const { cached, present } = await this.sourceStates(sources);
    const health = new Map(rows.map((row) => [row.token, { sources: 0, failing: 0, shrink_pending: 0 }]));
    for (const row of sources) {
      const view = this.source(row, cached.get(sourceFetchKey(row)), present);
      const counts = health.get(row.subscription_token);
      if (!counts) continue;
      counts.sources++;
      if (view.last_error !== null) counts.failing++;
      if (view.shrink_pending === true) counts.shrink_pending++;
    }
    return Promise.all(
      rows.map(async (row) => ({ ...this.item(row, await this.servedLines(row)), health: health.get(row.token)! })),
    );
  }

  /** What the views of `sources` read besides their rows: fetch states of URLs, and which references still exist. */
  private async sourceStates(sources: SourceRow[]) {
    const keys = sources.filter((s) => s.source_type === 'external_url').map(sourceFetchKey);
    const refs = sources.filter((s) => s.source_type === 'internal_token').map(referencedToken);
    const [cached, present] = await Promise.all([this.external.fetchStates(keys), existingTokens(this.db, refs)]);
    return { cached, present };
  }

  /** sources_count: the number of lines the public link serves now, from cached upstream content only. */
  private async servedLines(subscription: SubscriptionWithProvider): Promise<number> {
    return (await this.cache.get(subscription.token))?.lines.length ?? 0;
  }

  private item(row: SubscriptionWithProvider, sourcesCount: number): Omit<SubscriptionListItem, 'health'> {
    return {
      token: row.token,
      ...publicLinks(this.config.publicBaseUrl, row.token),
      name: row.name,
      provider_name: row.provider_name,
      description: row.description,
      sources_count: sourcesCount,
      ...settingsView(row),
      transforms: transformsOf(row.transforms),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  /** `present`: the referenced tokens that still exist (a reference to any other is dangling). */
  private source(row: SourceRow, cached: CacheState | undefined, present: ReadonlySet<string>): SourceView {
    const external = row.source_type === 'external_url';
    const dangling = row.source_type === 'internal_token' && !present.has(referencedToken(row));
    return {
      id: row.id,
      source_type: row.source_type,
      data: this.sourceData(row),
      comment: row.comment,
      order_index: row.order_index,
      is_hidden: row.is_hidden === 1,
      max_depth: row.max_depth,
      last_fetched_at: external ? (cached?.fetched_at ?? null) : null,
      last_error: external ? (cached?.last_error ?? null) : dangling ? SUBSCRIPTION_DELETED : null,
      configs_count: external ? (cached?.configs_count ?? 0) : null,
      shrink_pending: external ? (cached?.shrink_count ?? 0) > 0 : null,
      fetch: external ? fetchOptionsView(row.fetch_options) : null,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  /** The string a client can send back to recreate this source (config comments re-encoded so they round-trip). */
  private sourceData(row: SourceRow): string {
    if (row.source_type === 'internal_token') return `${this.config.publicBaseUrl}/api/v1/sub/${referencedToken(row)}`;
    if (row.source_type === 'config' && row.comment) return `${row.data}#${encodeComment(row.comment)}`;
    // Without a '#', a vmess link's `ps` would become the comment again when sent back; an empty fragment keeps none.
    if (row.source_type === 'config' && vmessName(row.data)?.trim()) return `${row.data}#`;
    return row.data;
  }
}

export function sourceFetchKey(row: SourceRow): string {
  return fetchKey(row.data, row.fetch_options);
}

function referencedToken(row: SourceRow): string {
  return row.ref_token ?? row.data;
}
