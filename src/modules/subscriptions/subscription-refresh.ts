// POST .../refresh: re-fetching every external source of one subscription now, at most one run per subscription at once.
import type { Executor } from '../../db/executor.js';
import type { ExternalSources, RefreshOptions } from '../fetch/external-sources.js';
import { listSources } from '../sources/sources.store.js';
import { sourceFetchKey } from './subscriptions.views.js';

export interface RefreshReport {
  refreshed: number;
  failed: number;
  skipped: number;
  total: number;
  message: string | null;
  errors: string[] | null;
}

export class SubscriptionRefresher {
  /** Refreshes running now, by subscription token: a second refresh of the same subscription joins the first. */
  private readonly running = new Map<string, Promise<RefreshReport>>();

  constructor(
    private readonly db: Executor,
    private readonly external: ExternalSources,
  ) {}

  /** Joins a refresh already running (one with `acceptShrink` joins only another that accepts shrinks). */
  refresh(token: string, options: RefreshOptions): Promise<RefreshReport> {
    const key = options.acceptShrink ? `${token} accept` : token;
    const running = this.running.get(key);
    if (running) return running;
    const report = this.refreshAll(token, options).finally(() => this.running.delete(key));
    this.running.set(key, report);
    return report;
  }

  private async refreshAll(token: string, options: RefreshOptions): Promise<RefreshReport> {
    const sources = await listSources(this.db, token);
    const urls = sources.filter((s) => s.source_type === 'external_url');
    const outcomes = await Promise.all(
      urls.map(async (s) => ({ url: s.data, outcome: await this.external.refresh(sourceFetchKey(s), options) })),
    );
    const failures = outcomes.flatMap(({ url, outcome }) => (outcome.ok ? [] : [`${url}: ${outcome.error}`]));
    const refreshed = urls.length - failures.length;
    return {
      refreshed,
      failed: failures.length,
      skipped: sources.length - urls.length,
      total: sources.length,
      message:
        urls.length === 0
          ? 'No external sources to refresh.'
          : `Refreshed ${refreshed} of ${urls.length} external sources${failures.length ? `; ${failures.length} failed` : ''}.`,
      errors: failures.length > 0 ? failures : null,
    };
  }
}
