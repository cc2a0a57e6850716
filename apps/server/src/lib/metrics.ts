import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

type Labels = Record<string, string>;

/** A value a gauge answers when scraped: one number, or one per set of labels. */
export type GaugeReading = number | Array<{ labels: Labels; value: number }>;

/**
 * The server's Prometheus metrics (served at GET /metrics when METRICS_TOKEN is set).
 * Any part of the server registers its own: a counter it moves, a histogram it observes,
 * or a gauge read when scraped, such as the job runner's queue depth and failures:
 *
 *   const failed = metrics.counter({ name: 'cloudvault_jobs_failed_total', help: '…', labelNames: ['queue'] });
 *   failed.inc({ queue: 'mail' });
 *   metrics.gauge({ name: 'cloudvault_jobs_queued', help: '…', labelNames: ['queue'], collect: async () => [{ labels: { queue: 'mail' }, value: await depth('mail') }] });
 *
 * Names follow Prometheus' conventions (docs/decisions/0020-running-several-nodes.md#metrics).
 */
export interface Metrics {
  counter(options: { name: string; help: string; labelNames?: string[] }): { inc(labels?: Labels, by?: number): void };
  histogram(options: { name: string; help: string; labelNames?: string[]; buckets?: number[] }): {
    observe(labels: Labels, value: number): void;
  };
  /** A gauge moved by its owner (`set`, `inc`, `dec`), or read from `collect` at each scrape. */
  gauge(options: { name: string; help: string; labelNames?: string[]; collect?: () => GaugeReading | Promise<GaugeReading> }): {
    set(labels: Labels, value: number): void;
    inc(labels?: Labels): void;
    dec(labels?: Labels): void;
  };
  /** The Prometheus text exposition of every metric. */
  render(): Promise<{ contentType: string; text: string }>;
}

/** A registry of its own (not prom-client's global one); `processMetrics` adds Node's CPU, memory, event loop and GC figures. */
export function createMetrics(options: { processMetrics: boolean }): Metrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  return {
    counter({ name, help, labelNames = [] }) {
      const counter = new Counter({ name, help, labelNames, registers: [registry] });
      return { inc: (labels = {}, by = 1) => counter.inc(labels, by) };
    },
    histogram({ name, help, labelNames = [], buckets }) {
      const histogram = new Histogram({ name, help, labelNames, registers: [registry], ...(buckets ? { buckets } : {}) });
      return { observe: (labels, value) => histogram.observe(labels, value) };
    },
    gauge({ name, help, labelNames = [], collect }) {
      const gauge = new Gauge({
        name,
        help,
        labelNames,
        registers: [registry],
        ...(collect
          ? {
              async collect(this: Gauge) {
                const reading = await collect();
                if (typeof reading === 'number') return void this.set(reading);
                this.reset();
                for (const { labels, value } of reading) this.set(labels, value);
              },
            }
          : {}),
      });
      return {
        set: (labels, value) => gauge.set(labels, value),
        inc: (labels = {}) => gauge.inc(labels),
        dec: (labels = {}) => gauge.dec(labels),
      };
    },
    async render() {
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}
