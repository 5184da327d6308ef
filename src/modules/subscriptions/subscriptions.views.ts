// Shapes stored subscription and source rows into the API's response objects.
import type { Config } from '../../config.js';
import type { Executor } from '../../db/executor.js';
import type { SourceRow } from '../../db/types.js';
import { encodeComment } from '../sources/proxy-uri.js';
import { listSources } from '../sources/sources.store.js';
import type { SourceView, SubscriptionListItem, SubscriptionView } from './subscriptions.schemas.js';
import type { SubscriptionWithProvider } from './subscriptions.store.js';
import type { RenderCache } from '../resolve/render-cache.js';
import type { CacheState, ExternalSources } from '../fetch/external-sources.js';
import { settingsView } from './link-settings.js';

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
    const urls = sources.filter((s) => s.source_type === 'external_url').map((s) => s.data);
    const cached = await this.external.fetchStates(urls);
    return {
      ...this.item(subscription, count),
      sources: sources.map((s) => this.source(s, cached.get(s.data))),
    };
  }

  async listItems(rows: SubscriptionWithProvider[]): Promise<SubscriptionListItem[]> {
    return Promise.all(rows.map(async (row) => this.item(row, await this.servedLines(row))));
  }

  /** sources_count: the number of lines the public link serves now, from cached upstream content only. */
  private async servedLines(subscription: SubscriptionWithProvider): Promise<number> {
    return (await this.cache.get(subscription.token))?.lines.length ?? 0;
  }

  private item(row: SubscriptionWithProvider, sourcesCount: number): SubscriptionListItem {
    return {
      token: row.token,
      name: row.name,
      provider_name: row.provider_name,
      description: row.description,
      sources_count: sourcesCount,
      ...settingsView(row),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  private source(row: SourceRow, cached: CacheState | undefined): SourceView {
    const external = row.source_type === 'external_url';
    return {
      id: row.id,
      source_type: row.source_type,
      data: this.sourceData(row),
      comment: row.comment,
      order_index: row.order_index,
      is_hidden: row.is_hidden === 1,
      max_depth: row.max_depth,
      last_fetched_at: external ? (cached?.fetched_at ?? null) : null,
      last_error: external ? (cached?.last_error ?? null) : null,
      configs_count: external ? (cached?.configs_count ?? 0) : null,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  /** The string a client can send back to recreate this source (config comments re-encoded so they round-trip). */
  private sourceData(row: SourceRow): string {
    if (row.source_type === 'internal_token')
      return `${this.config.publicBaseUrl}/api/v1/sub/${row.ref_token ?? row.data}`;
    if (row.source_type === 'config' && row.comment) return `${row.data}#${encodeComment(row.comment)}`;
    return row.data;
  }
}
