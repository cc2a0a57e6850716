import { randomUUID } from 'node:crypto';
import { type Clock as BossClock, PgBoss } from 'pg-boss';
import type { ServiceLog } from '../../lib/service-log.ts';
import { createJobRegistry } from './job-registry.ts';
import type { EnqueueOptions, JobRunner, JobStats } from './job-runner.ts';

/** pg-boss keeps its tables in this schema of the application's database. */
export const JOB_SCHEMA = 'pgboss';

/**
 * How each queue treats its jobs. A running job beats its heartbeat: a node killed mid-job
 * stops beating, and within a minute pg-boss fails the job and retries it on another node.
 */
const QUEUE_OPTIONS = { heartbeatSeconds: 30, expireInSeconds: 2 * 60 * 60, retryLimit: 2, retryDelay: 60, retryBackoff: true };

export interface PgBossJobRunnerOptions {
  connectionString: string;
  log: ServiceLog;
  /** pg-boss's own clock: tests pass its TestClock to move schedules without waiting. */
  clock?: BossClock;
}

/**
 * The runner of a PostgreSQL installation, on pg-boss (docs/decisions/0017-job-runner.md).
 * A periodic job is a pg-boss schedule: each due time, one cron pass across all nodes
 * claims it and files one job for it (its singleton slot), which one node runs. A queue
 * per job lets no more than one of a periodic job run at once (policy `stately`), and
 * keeps one waiting job per singleton key for queued jobs (policy `short`).
 */
export function createPgBossJobRunner(options: PgBossJobRunnerOptions): JobRunner {
  const { log } = options;
  const registry = createJobRegistry(log);
  let boss: PgBoss | undefined;
  let stopped = false;

  function started(): PgBoss {
    if (!boss || stopped) throw new Error('the job runner is not running');
    return boss;
  }

  return {
    driver: 'pg-boss',
    addPeriodic: registry.addPeriodic,
    addQueued: registry.addQueued,

    async start() {
      if (boss) return;
      registry.seal();
      boss = new PgBoss({
        connectionString: options.connectionString,
        schema: JOB_SCHEMA,
        application_name: 'cloudvault-jobs',
        max: 4,
        ...(options.clock ? { clock: options.clock } : {}),
      });
      boss.on('error', (error) => log.error({ err: error }, 'job runner error'));
      // Slow queries, backlogs, clock skew, a schedule it cannot read: worth an operator's look.
      boss.on('warning', (warning) => log.warn({ warning }, 'job runner warning'));
      await boss.start();
      const jobs = registry.all();
      for (const job of jobs) {
        await boss.createQueue(job.name, { ...QUEUE_OPTIONS, policy: job.kind === 'periodic' ? 'stately' : 'short' });
        // A turn missed while every node was down runs once when one is back.
        if (job.kind === 'periodic') await boss.schedule(job.name, job.cron, null, { tz: 'UTC', missed: 'once' });
        // Polled every 5 s: a periodic job starts within seconds of its due time.
        await boss.work(job.name, { batchSize: 1, pollingIntervalSeconds: 5 }, async ([queued]) =>
          registry.run(job.name, queued?.data ?? {}),
        );
      }
      // A schedule this version no longer has (or, with Stripe, renewals) stops filing jobs nobody takes.
      const periodic = new Set(jobs.filter((job) => job.kind === 'periodic').map((job) => job.name));
      for (const schedule of await boss.getSchedules()) {
        if (!periodic.has(schedule.name)) await boss.unschedule(schedule.name, schedule.key);
      }
    },

    async enqueue(name: string, data: object, enqueueOptions: EnqueueOptions = {}) {
      if (registry.get(name).kind !== 'queued') throw new Error(`job ${name} is periodic, not queued`);
      // The queue keeps one waiting job per key; without a key of its own, a job is alone under a fresh one.
      await started().send(name, data, {
        singletonKey: enqueueOptions.singletonKey ?? randomUUID(),
        ...(enqueueOptions.startAfter ? { startAfter: enqueueOptions.startAfter } : {}),
      });
    },

    runNow: (name, data) => registry.run(name, data),

    async stats(): Promise<JobStats[]> {
      // A node not (or no longer) running jobs has no queue to show; metrics may be scraped then.
      if (!boss || stopped) return [];
      const jobs = registry.all();
      const queues = new Map((await started().getQueues(jobs.map((job) => job.name))).map((queue) => [queue.name, queue]));
      return jobs.map((job) => {
        const queue = queues.get(job.name);
        return {
          name: job.name,
          kind: job.kind,
          queued: queue?.queuedCount ?? 0,
          active: queue?.activeCount ?? 0,
          failed: queue?.failedCount ?? 0,
        };
      });
    },

    async stop() {
      if (!boss || stopped) return;
      stopped = true;
      // Running jobs get 30 s to finish; pg-boss fails the rest, so they are retried.
      await boss.stop({ graceful: true, timeout: 30_000, close: true });
    },
  };
}
