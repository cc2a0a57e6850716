import type { Metrics } from '../../lib/metrics.ts';
import type { JobRunner } from './job-runner.ts';

/** Queue depth, running jobs and failures per job, read from the runner at each scrape (docs/api.md#metrics). */
export function registerJobMetrics(metrics: Pick<Metrics, 'gauge'>, jobs: Pick<JobRunner, 'stats'>): void {
  metrics.gauge({
    name: 'cloudvault_jobs',
    help: 'Background jobs per name: waiting to start, running, and failed (pg-boss: failed jobs it keeps; in-process: failures since start)',
    labelNames: ['job', 'state'],
    collect: async () =>
      (await jobs.stats()).flatMap((job) => [
        { labels: { job: job.name, state: 'queued' }, value: job.queued },
        { labels: { job: job.name, state: 'active' }, value: job.active },
        { labels: { job: job.name, state: 'failed' }, value: job.failed },
      ]),
  });
}
