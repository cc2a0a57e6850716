import type { SyncDownloadError, SyncDownloadHeader } from '@cloudvault/contract/sync';
import type { BlobSource, BlobStore } from '../../adapters/blob-store/blob-store.ts';
import { AppError } from '../../lib/errors.ts';
import type { FilesService } from '../files/files.service.ts';

/** One file of a download batch: its header and its bytes (opened, to be written then closed), or why it is not sent. */
export type DownloadEntry = { header: SyncDownloadHeader; source: BlobSource } | { error: SyncDownloadError };

export interface SyncDownloadsServiceDeps {
  files: Pick<FilesService, 'readableFile'>;
  blobs: Pick<BlobStore, 'open'>;
}

/**
 * POST /api/sync/downloads (docs/api.md#sync): the files of many ids, one after another in
 * one answer. Each file is opened only when its turn comes, so one blob at a time is open
 * and nothing is buffered beyond what the store's stream holds.
 */
export function createSyncDownloadsService({ files, blobs }: SyncDownloadsServiceDeps) {
  return {
    /**
     * The entries of `ids` in order. Missing, in Trash, another's not shared with the caller:
     * the same per-id 404 NOT_FOUND, which never says which. A blob the database lists but the
     * store does not hold is a fault of ours, thrown: the answer is then cut, never wrong.
     */
    async *entries(userId: string, ids: readonly string[]): AsyncGenerator<DownloadEntry> {
      for (const id of ids) {
        let readable;
        try {
          readable = await files.readableFile(userId, id);
        } catch (error) {
          if (error instanceof AppError && error.status === 404) {
            yield { error: { id, error: 'File not found', code: 'NOT_FOUND' } };
            continue;
          }
          throw error;
        }
        const { file } = readable;
        const source = await blobs.open(file.blob_key);
        yield { header: { id, size: Number(file.size), contentHash: file.sha256 }, source };
      }
    },
  };
}

export type SyncDownloadsService = ReturnType<typeof createSyncDownloadsService>;
