// Shapes stored subscription and source rows into the API's response objects.
import type { Config } from '../../config.js';
import type { Executor } from '../../db/executor.js';
import type { SourceRow } from '../../db/types.js';
import { encodeComment } from '../sources/proxy-uri.js';
import { listSources } from '../sources/sources.store.js';
import type { SourceView, SubscriptionListItem, SubscriptionView } from './subscriptions.schemas.js';
import type { SubscriptionWithProvider } from './subscriptions.store.js';

export class SubscriptionViews {
  constructor(
    private readonly db: Executor,
    private readonly config: Config,
  ) {}

  async full(subscription: SubscriptionWithProvider): Promise<SubscriptionView> {
    const sources = await listSources(this.db, subscription.token);
    return {
      ...this.item(subscription, servedLineCount(sources)),
      sources: sources.map((s) => this.source(s)),
    };
  }

  async listItems(rows: SubscriptionWithProvider[]): Promise<SubscriptionListItem[]> {
    return Promise.all(rows.map(async (row) => this.item(row, servedLineCount(await listSources(this.db, row.token)))));
  }

  private item(row: SubscriptionWithProvider, sourcesCount: number): SubscriptionListItem {
    return {
      token: row.token,
      name: row.name,
      provider_name: row.provider_name,
      description: row.description,
      sources_count: sourcesCount,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  private source(row: SourceRow): SourceView {
    return {
      id: row.id,
      source_type: row.source_type as SourceView['source_type'],
      data: this.sourceData(row),
      comment: row.comment,
      order_index: row.order_index,
      is_hidden: row.is_hidden === 1,
      max_depth: row.max_depth,
      last_fetched_at: null,
      last_error: null,
      configs_count: null,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  /** The string a client can send back to recreate this source (config comments re-encoded so they round-trip). */
  private sourceData(row: SourceRow): string {
    if (row.source_type === 'internal_token') return `${this.config.publicBaseUrl}/api/v1/sub/${row.ref_token ?? row.data}`;
    if (row.source_type === 'config' && row.comment) return `${row.data}#${encodeComment(row.comment)}`;
    return row.data;
  }
}

/** Lines the public link serves: until the resolver lands, the visible config sources of the subscription itself. */
function servedLineCount(sources: SourceRow[]): number {
  return sources.filter((s) => s.source_type === 'config' && s.is_hidden === 0).length;
}
