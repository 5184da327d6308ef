// The arithmetic the benchmarks and the fault run share: nearest-rank percentiles and the median.

/** The nearest-rank percentile (p in 0-100) of numbers in any order; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/** The nearest-rank median: the middle value, the lower of the middle two for an even count; 0 for none. */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}
