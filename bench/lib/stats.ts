/** Nearest-rank percentile of a sample (p in 0..100). NaN for an empty sample. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export interface Summary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export function summarize(samples: readonly number[]): Summary {
  return {
    count: samples.length,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    max: samples.length === 0 ? Number.NaN : samples.reduce((a, b) => Math.max(a, b), -Infinity),
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The middle of a sample (nearest rank: the lower of the two middles of an even count). */
export const median = (values: readonly number[]) => percentile(values, 50);
