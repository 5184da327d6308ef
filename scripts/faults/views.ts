// The service's subscription answers in the fault ledger's terms, and sources in the API's input form.
import type { Actual, SourceState } from './ledger.js';

export interface SourceView {
  id: string;
  source_type: string;
  data: string;
  comment: string | null;
}

export interface SubscriptionView {
  token: string;
  name: string;
  sources: SourceView[];
}

/** A subscription as the API shows it, in the ledger's terms. */
export function actualOf(view: { name: string; sources: SourceView[] }): Actual {
  return { name: view.name, sources: view.sources.map((s) => ({ data: baseData(s), comment: s.comment })) };
}

export function baseData(source: { source_type: string; data: string }): string {
  return source.source_type === 'config' ? (source.data.split('#')[0] as string) : source.data;
}

/** What the API takes: a config's comment travels as its fragment. */
export function toInput(source: SourceState): string {
  return source.comment === null ? source.data : `${source.data}#${encodeURIComponent(source.comment)}`;
}
