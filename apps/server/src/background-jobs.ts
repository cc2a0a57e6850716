import type { JobRunner } from './adapters/jobs/job-runner.ts';

/** The periodic jobs' names, for tests and operators (runNow, stats). */
export const BACKGROUND_JOBS = {
  retention: 'trash-and-version-retention',
  storageFigures: 'daily-storage-figures',
  renewals: 'subscription-renewals',
  mailDelivery: 'mail-delivery',
} as const;

/**
 * The background work and when it runs (cron, UTC). The hourly jobs are spread over the hour
 * so they do not start together. Each is safe to run twice at once (docs/decisions/0017-job-runner.md).
 */
export function registerBackgroundJobs(
  jobs: Pick<JobRunner, 'addPeriodic'>,
  work: {
    purgeExpiredTrash(): Promise<unknown>;
    purgeExpiredVersions(): Promise<unknown>;
    snapshotStorage(): Promise<unknown>;
    /** Absent when the payment provider renews on its own (Stripe). */
    runRenewals: (() => Promise<unknown>) | undefined;
    deliverDueMail(): Promise<unknown>;
  },
): void {
  jobs.addPeriodic({
    name: BACKGROUND_JOBS.retention,
    cron: '5 * * * *',
    run: async () => ({ trash: await work.purgeExpiredTrash(), versions: await work.purgeExpiredVersions() }),
  });
  jobs.addPeriodic({ name: BACKGROUND_JOBS.storageFigures, cron: '25 * * * *', run: () => work.snapshotStorage() });
  if (work.runRenewals) jobs.addPeriodic({ name: BACKGROUND_JOBS.renewals, cron: '45 * * * *', run: work.runRenewals });
  jobs.addPeriodic({ name: BACKGROUND_JOBS.mailDelivery, cron: '* * * * *', run: () => work.deliverDueMail() });
}
