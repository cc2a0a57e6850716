import type { Exchange } from '../lib/http-client.ts';
import { percentile } from '../lib/stats.ts';
import type { GrowthConfig } from './growth-config.ts';

/** One size of a series: what a request (or an operation) cost there. */
export interface GrowthPoint {
  size: number;
  /** Timed requests behind p50/p99 (1 for a one-off operation such as emptying Trash). */
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** p50 divided by the size: flat when cost grows linearly with the work. */
  perItemUs: number;
  /** Peak memory of the server during the operation, above its level before, where measured. */
  peakRssMiB?: number;
  /** Bytes of storage per item (the change journal's rows and indexes per change), where measured. */
  bytesPerItem?: number;
  note?: string;
}

export interface GrowthSeries {
  id: string;
  title: string;
  /** What `size` counts ("files in the folder", "users"). */
  sizeLabel: string;
  /** One line per variant (a search term, a database); most series have one. */
  lines: Array<{ name: string; points: GrowthPoint[] }>;
  /**
   * What the plot shows: the cost per item (flat = cost grows linearly with the work), or
   * p99 latency (flat = the size does not matter: searches and pages of one size).
   */
  plot: 'perItemUs' | 'p99Ms' | 'peakRssMiB' | 'bytesPerItem';
  /** A target to draw on the p99 plot. */
  targetMs?: number;
  notes: string[];
}

/** Timed sequential requests after a warm-up, until `config.requests` or the point's time budget. */
export async function timeRequests(
  config: GrowthConfig,
  send: () => Promise<Exchange>,
  check: (exchange: Exchange) => void,
): Promise<number[]> {
  for (let index = 0; index < config.warmup; index++) check(await send());
  const latencies: number[] = [];
  const started = performance.now();
  while (
    latencies.length < config.requests &&
    (latencies.length < config.minRequests || performance.now() - started < config.pointBudgetMs)
  ) {
    const exchange = await send();
    check(exchange);
    latencies.push(exchange.ms);
  }
  return latencies;
}

export function latencyPoint(size: number, latencies: number[], extra: Partial<GrowthPoint> = {}): GrowthPoint {
  const p50Ms = percentile(latencies, 50);
  return { size, requests: latencies.length, p50Ms, p99Ms: percentile(latencies, 99), perItemUs: (p50Ms * 1000) / size, ...extra };
}
