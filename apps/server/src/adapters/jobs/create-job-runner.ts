import type { Clock } from '../../lib/clock.ts';
import type { ServiceLog } from '../../lib/service-log.ts';
import { createInProcessJobRunner } from './in-process-job-runner.ts';
import type { JobRunner } from './job-runner.ts';

/** pg-boss on PostgreSQL (every node shares its queues), timers in this process on SQLite (one node). */
export async function createJobRunner(options: { databaseUrl: string | undefined; clock: Clock; log: ServiceLog }): Promise<JobRunner> {
  if (!options.databaseUrl) return createInProcessJobRunner({ clock: options.clock, log: options.log });
  // Loaded only on PostgreSQL: SQLite installations never need pg-boss.
  const { createPgBossJobRunner } = await import('./pg-boss-job-runner.ts');
  return createPgBossJobRunner({ connectionString: options.databaseUrl, log: options.log });
}
