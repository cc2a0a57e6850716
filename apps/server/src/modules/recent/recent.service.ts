import { RECENT_DEFAULT, RECENT_MAX, type RecentResponse } from '@cloudvault/contract/recent';
import type { Clock } from '../../lib/clock.ts';
import { badRequest } from '../../lib/errors.ts';
import { presentFile } from '../files/files.presenter.ts';
import { presentFolder } from '../folders/folders.presenter.ts';
import type { RecentFileRow, RecentRepository } from './recent.repository.ts';

/** An open within this long of the last one recorded is not written again (a video's range requests, a viewer reopened). */
export const OPEN_RECORD_INTERVAL_MS = 60_000;

export interface RecentServiceDeps {
  recent: Pick<RecentRepository, 'lastOpened' | 'recordOpen' | 'changedLast' | 'openedLast' | 'foldersOf'>;
  clock: Clock;
}

/** The number of files a query asks for: 1 to RECENT_MAX, RECENT_DEFAULT without one. */
export function recentLimit(limit: string | undefined): number {
  if (limit === undefined) return RECENT_DEFAULT;
  const value = Number(limit);
  if (!(Number.isInteger(value) && value >= 1 && value <= RECENT_MAX))
    throw badRequest(`limit must be a whole number from 1 to ${RECENT_MAX}`, 'INVALID_LIMIT');
  return value;
}

/** When a file was last touched for Recent: changed, or opened by its owner, whichever came last. */
const touchedAt = (row: RecentFileRow) => (row.opened_at !== null && row.opened_at > row.updated_at ? row.opened_at : row.updated_at);

/**
 * Recent: the files a user opened (viewed or downloaded through the app), uploaded or
 * changed lately, newest first, each once, none in Trash
 * (docs/decisions/0052-starred-and-recent.md). Opens are written at most once a minute per
 * file, and only after a read finds the last one older: opening a file is a read, and
 * should cost about one.
 */
export function createRecentService({ recent, clock }: RecentServiceDeps) {
  return {
    /** The owner opened their file: remembered for Recent, unless it was a minute ago or less. */
    async opened(userId: string, fileId: string): Promise<void> {
      const now = clock.now();
      const last = await recent.lastOpened(fileId);
      if (last !== undefined && now.getTime() - Date.parse(last) < OPEN_RECORD_INTERVAL_MS) return;
      await recent.recordOpen(userId, fileId, now.toISOString());
    },

    /**
     * The `limit` files touched last. Each of them is among the `limit` changed last or the
     * `limit` opened last (a file outside both has `limit` others touched after it), so two
     * short reads on their indexes answer it, whatever the drive holds.
     */
    async list(userId: string, query: { limit?: string }): Promise<RecentResponse> {
      const limit = recentLimit(query.limit);
      const [changed, opened] = await Promise.all([recent.changedLast(userId, limit), recent.openedLast(userId, limit)]);
      const byId = new Map<string, RecentFileRow>();
      for (const row of [...changed, ...opened]) byId.set(row.id, row);
      const rows = [...byId.values()]
        .sort((a, b) => {
          const [at, bt] = [touchedAt(a), touchedAt(b)];
          return at === bt ? (a.id < b.id ? 1 : -1) : at < bt ? 1 : -1;
        })
        .slice(0, limit);
      const folderIds = [...new Set(rows.flatMap((row) => (row.folder_id === null ? [] : [row.folder_id])))];
      const folders = await recent.foldersOf(userId, folderIds);
      return { files: rows.map((row) => presentFile(row)), folders: folders.map((row) => presentFolder(row)) };
    },
  };
}

export type RecentService = ReturnType<typeof createRecentService>;
