import type { Metrics } from '../lib/metrics.ts';
import type { DatabaseHandle } from './database.ts';

/** PostgreSQL's pool, read at each scrape: connections open, idle, and queries waiting for one. Nothing with SQLite. */
export function registerPoolMetrics(metrics: Pick<Metrics, 'gauge'>, database: Pick<DatabaseHandle, 'poolStats'>): void {
  if (database.poolStats() === undefined) return;
  metrics.gauge({
    name: 'cloudvault_db_pool_connections',
    help: 'PostgreSQL pool: connections in total and idle, and queries waiting for a connection',
    labelNames: ['state'],
    collect: () => {
      const stats = database.poolStats();
      if (!stats) return [];
      return [
        { labels: { state: 'total' }, value: stats.total },
        { labels: { state: 'idle' }, value: stats.idle },
        { labels: { state: 'waiting' }, value: stats.waiting },
      ];
    },
  });
}
