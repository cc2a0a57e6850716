import type { AnalyticsResponse } from '@cloudvault/contract/analytics';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { PlanEntry } from '../plans/plans.catalogue.ts';
import type { AnalyticsRepository } from './analytics.repository.ts';

const DAY = 24 * 60 * 60 * 1000;
export const ANALYTICS_DAYS = 90;
const TOP = 10;

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** Storage over time, space by category, the largest files and folders, downloads per share (plans with analytics). */
export function createAnalyticsService(deps: { analytics: AnalyticsRepository; planOf(userId: string): Promise<PlanEntry>; clock: Clock }) {
  const { analytics, clock } = deps;

  return {
    /** The sweeper's turn: today's storage figure for every user. */
    async snapshotStorage(): Promise<void> {
      await analytics.snapshotAllUsers(dayOf(clock.now()));
    },

    async countShareDownload(shareId: string): Promise<void> {
      await analytics.countShareDownload(shareId, dayOf(clock.now()));
    },

    async report(userId: string): Promise<AnalyticsResponse> {
      const plan = await deps.planOf(userId);
      if (!plan.capabilities.analytics) {
        throw new AppError(403, 'ANALYTICS_NOT_IN_PLAN', `Advanced analytics are not part of the ${plan.name} plan.`);
      }
      const today = clock.now();
      const from = dayOf(new Date(today.getTime() - (ANALYTICS_DAYS - 1) * DAY));
      await analytics.snapshotUser(userId, dayOf(today));
      const [storage, categories, files, folders, perFolder, downloads] = await Promise.all([
        analytics.storageSince(userId, from),
        analytics.byCategory(userId),
        analytics.largestFiles(userId, TOP),
        analytics.liveFolders(userId),
        analytics.bytesPerFolder(userId),
        analytics.shareDownloadsSince(userId, from),
      ]);

      // Each folder's total is its own files plus every folder under it.
      const parentOf = new Map(folders.map((folder) => [folder.id, folder.parent_id]));
      const totals = new Map<string, number>();
      for (const { folder_id: folderId, bytes } of perFolder) {
        let current: string | null | undefined = folderId;
        for (let depth = 0; current && depth < 10_000; depth += 1) {
          totals.set(current, (totals.get(current) ?? 0) + Number(bytes));
          current = parentOf.get(current);
        }
      }
      const largestFolders = folders
        .map((folder) => ({ id: folder.id, name: folder.name, parentId: folder.parent_id, bytes: totals.get(folder.id) ?? 0 }))
        .filter((folder) => folder.bytes > 0)
        .sort((a, b) => b.bytes - a.bytes || a.name.localeCompare(b.name))
        .slice(0, TOP);

      const byShare = new Map<string, AnalyticsResponse['shareDownloads'][number]>();
      for (const row of downloads) {
        const entry = byShare.get(row.share_id) ?? { shareId: row.share_id, name: row.name ?? '', total: 0, days: [] };
        entry.total += Number(row.count);
        entry.days.push({ day: row.day, count: Number(row.count) });
        byShare.set(row.share_id, entry);
      }

      return {
        storageHistory: storage.map((row) => ({ day: row.day, bytes: Number(row.bytes) })),
        byCategory: categories.map((row) => ({ category: row.category, files: Number(row.files), bytes: Number(row.bytes) })),
        largestFiles: files.map((file) => ({ id: file.id, name: file.name, size: Number(file.size), folderId: file.folder_id })),
        largestFolders,
        shareDownloads: [...byShare.values()].sort((a, b) => b.total - a.total),
      };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
