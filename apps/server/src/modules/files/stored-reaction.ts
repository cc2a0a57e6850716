import type { FileItem } from '@cloudvault/contract/files';
import { formatBytes } from '@cloudvault/contract/format';
import { previewOf } from '../../lib/content-types.ts';
import type { ServiceLog } from '../../lib/service-log.ts';
import type { ActivityService } from '../activity/activity.service.ts';

/** The caller's storage_used before and after the new bytes were counted, and the plan's limit. */
export interface UsageChange {
  before: number;
  after: number;
  limit: number;
}

/** A copy as its reaction is told: what was copied, its size, and the files it made. */
export interface CopyMade {
  item: 'file' | 'folder';
  /** The copy's name (the top folder's, for a folder). */
  name: string;
  bytes: number;
  files: ReadonlyArray<{ id: string; mimetype: string }>;
}

export interface StoredReactionDeps {
  activity: Pick<ActivityService, 'record'>;
  /** Storage alerts, in-app and by mail, when usage passes 80 % or 90 % (notifications' storage alerts). */
  usageChanged(userId: string, usage: UsageChange): Promise<void>;
  /** Queues a file's thumbnails when its kind has them (the thumbnails module, built after this one). */
  requestThumbnail(file: { id: string; mimetype: string }): Promise<void>;
  /** The most thumbnails one copy queues: the periodic backfill makes the rest, at its own pace. */
  thumbnailsPerCopy: number;
  log: Pick<ServiceLog, 'warn'>;
}

/** The kinds of file the server draws thumbnails of (docs/decisions/0023-thumbnails.md). */
const withThumbnail = (file: { mimetype: string }) => ['image', 'pdf', 'video'].includes(previewOf(file.mimetype) ?? '');

/**
 * What follows new bytes stored in the user's drive, whichever way they came (an upload
 * through any way in, a server-side copy): one activity entry per operation, the storage
 * alert when usage crossed a threshold, and the new files' thumbnails queued at once rather
 * than left to the periodic backfill. It follows only what was kept, after the answer is
 * decided: none of it fails the operation.
 */
export function createStoredReaction(deps: StoredReactionDeps) {
  async function queueThumbnails(files: ReadonlyArray<{ id: string; mimetype: string }>): Promise<void> {
    for (const file of files) {
      // Only queued here; a queue that fails leaves the file to the backfill.
      await deps.requestThumbnail(file).catch((error: unknown) => deps.log.warn({ err: error, fileId: file.id }, 'thumbnail not queued'));
    }
  }

  async function react(
    userId: string,
    entry: { type: 'upload' | 'copy'; details: Record<string, string> },
    files: ReadonlyArray<{ id: string; mimetype: string }>,
    usage: UsageChange,
  ): Promise<void> {
    await deps.activity.record(userId, entry.type, entry.details);
    await deps.usageChanged(userId, usage);
    await queueThumbnails(files);
  }

  return {
    /** After an upload is kept: one file, new or a new version of one. */
    uploaded: (userId: string, file: FileItem, usage: UsageChange): Promise<void> =>
      react(userId, { type: 'upload', details: { name: file.originalName, size: file.sizeFormatted } }, [file], usage),

    /**
     * After a batch of files is kept (POST /api/sync/uploads): one entry for the whole batch,
     * as a copy of many files has, named by its first file, with the count and total size.
     */
    uploadedMany: (userId: string, upload: { files: readonly FileItem[]; bytes: number }, usage: UsageChange): Promise<void> =>
      react(
        userId,
        {
          type: 'upload',
          details: { name: upload.files[0]?.originalName ?? '', size: formatBytes(upload.bytes), files: String(upload.files.length) },
        },
        upload.files.filter(withThumbnail).slice(0, deps.thumbnailsPerCopy),
        usage,
      ),

    /** After a copy is listed: one entry for the whole copy, a folder of 10,000 files included. */
    copied: (userId: string, copy: CopyMade, usage: UsageChange): Promise<void> =>
      react(
        userId,
        { type: 'copy', details: { item: copy.item, name: copy.name, size: formatBytes(copy.bytes), files: String(copy.files.length) } },
        copy.files.filter(withThumbnail).slice(0, deps.thumbnailsPerCopy),
        usage,
      ),
  };
}

export type StoredReaction = ReturnType<typeof createStoredReaction>;
