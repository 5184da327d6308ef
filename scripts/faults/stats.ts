// The fault run's arithmetic, kept pure so a unit test can check it: percentiles, latency summaries and error tallies.

/** The nearest-rank percentile (p in 0-100) of numbers in any order; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

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
