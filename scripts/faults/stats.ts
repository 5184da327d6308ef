// The fault run's arithmetic, kept pure so a unit test can check it: latency summaries and error tallies.
import { percentile } from '../support/stats.js';

export interface Summary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function summarize(values: readonly number[]): Summary {
  return {
    count: values.length,
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    max: values.length === 0 ? 0 : Math.max(...values),
  };
}

/** Counts of each distinct label, most frequent first (ties by label). */
export function tally(labels: readonly string[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** "503 database_unavailable ×12, ECONNREFUSED ×3", or "none". */
export function formatTally(counts: ReadonlyArray<[string, number]>): string {
  return counts.length === 0 ? 'none' : counts.map(([label, count]) => `${label} ×${count}`).join(', ');
}
