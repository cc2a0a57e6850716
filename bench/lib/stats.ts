/** Nearest-rank percentile: p99 of 200 samples is the 198th smallest, a sample that happened. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] ?? Number.NaN;
}

export const median = (samples: number[]) => percentile(samples, 50);

/** Decimal megabytes per second (10^6 bytes), as disk and network figures are quoted. */
export const mbPerSecond = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);

/** Fixture sizes as they were chosen: powers of two. */
export const formatMiB = (bytes: number) => (bytes >= 1024 ** 3 ? `${bytes / 1024 ** 3} GiB` : `${bytes / 1024 ** 2} MiB`);
