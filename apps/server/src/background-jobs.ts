import type { JobRunner } from './adapters/jobs/job-runner.ts';

/** The periodic jobs' names, for tests and operators (runNow, stats). */
export const BACKGROUND_JOBS = {
  retention: 'trash-and-version-retention',
  storageFigures: 'daily-storage-figures',
  renewals: 'subscription-renewals',
  mailDelivery: 'mail-delivery',
  storageReconciler: 'storage-reconciler',
  blobDeletion: 'blob-deletion',
  storageSweeper: 'storage-sweeper',
  thumbnailBackfill: 'thumbnail-backfill',
  resumableUploadExpiry: 'resumable-upload-expiry',
  complimentaryPlanEnds: 'complimentary-plan-ends',
  changeFeedRetention: 'change-feed-retention',
} as const;

/** The queued job that makes one file's thumbnails (docs/decisions/0023-thumbnails.md); data `{fileId}`. */
export const THUMBNAIL_JOB = 'thumbnail';

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
    /** docs/decisions/0021-crash-safe-storage.md: expired reservations back, storage_used exact. */
    reconcileStorage(): Promise<unknown>;
    deleteQueuedBlobs(): Promise<unknown>;
    sweepStorage(): Promise<unknown>;
    /** docs/decisions/0025-resumable-uploads.md: tus uploads unfinished after 24 hours lose their bytes and reservation. */
    expireResumableUploads(): Promise<unknown>;
    /** docs/decisions/0029-operator-console.md: operator-granted plans end at their date, with any payment provider. */
    endExpiredComplimentaryPlans(): Promise<unknown>;
    /** docs/decisions/0060-change-journal.md: change feed entries older than CHANGE_FEED.retentionMs go. */
    pruneChangeFeed(): Promise<unknown>;
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
  // Every minute: what a dead node reserved goes back within its lease and a minute.
  jobs.addPeriodic({ name: BACKGROUND_JOBS.storageReconciler, cron: '* * * * *', run: () => work.reconcileStorage() });
  jobs.addPeriodic({ name: BACKGROUND_JOBS.blobDeletion, cron: '* * * * *', run: () => work.deleteQueuedBlobs() });
  jobs.addPeriodic({ name: BACKGROUND_JOBS.storageSweeper, cron: '35 * * * *', run: () => work.sweepStorage() });
  jobs.addPeriodic({ name: BACKGROUND_JOBS.resumableUploadExpiry, cron: '15 * * * *', run: () => work.expireResumableUploads() });
  jobs.addPeriodic({ name: BACKGROUND_JOBS.complimentaryPlanEnds, cron: '*/5 * * * *', run: () => work.endExpiredComplimentaryPlans() });
  jobs.addPeriodic({ name: BACKGROUND_JOBS.changeFeedRetention, cron: '55 * * * *', run: () => work.pruneChangeFeed() });
}

/**
 * Thumbnails: one queued job per file, and a backfill every five minutes that makes what has
 * none yet (files from before, restored versions, jobs a SQLite node lost when it died).
 */
export function registerThumbnailJobs(
  jobs: Pick<JobRunner, 'addPeriodic' | 'addQueued'>,
  work: { make(fileId: string): Promise<unknown>; backfill(): Promise<unknown> },
): void {
  jobs.addQueued<{ fileId?: unknown }>({
    name: THUMBNAIL_JOB,
    run: (data) => (typeof data.fileId === 'string' ? work.make(data.fileId) : Promise.resolve('no file')),
  });
  jobs.addPeriodic({ name: BACKGROUND_JOBS.thumbnailBackfill, cron: '*/5 * * * *', run: () => work.backfill() });
}
