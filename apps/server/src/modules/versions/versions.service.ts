import type { FileItem } from '@cloudvault/contract/files';
import type { FileVersion } from '@cloudvault/contract/versions';
import { formatBytes } from '@cloudvault/contract/format';
import type { FilesTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { FilesService } from '../files/files.service.ts';
import { presentFile } from '../files/files.presenter.ts';
import type { VersionRow, VersionsRepository } from './versions.repository.ts';

const DAY = 24 * 60 * 60 * 1000;
/** Retention (docs/product.md#version-history): keep the last 100 versions or 180 days, whichever keeps more. */
export const VERSIONS_KEPT = 100;
export const VERSION_DAYS_KEPT = 180;

function presentVersion(row: VersionRow): FileVersion {
  const size = Number(row.size);
  return {
    id: row.id,
    size,
    sizeFormatted: formatBytes(size),
    sha256: row.sha256,
    mimetype: row.mimetype,
    createdAt: row.created_at,
    replacedAt: row.replaced_at,
  };
}

/**
 * A file's earlier versions: listed, downloaded, restored (swapped with the current
 * bytes), deleted, and purged past retention. Existing versions stay usable after a
 * downgrade; only new uploads stop making them.
 */
export function createVersionsService(deps: {
  versions: VersionsRepository;
  files: Pick<FilesService, 'findLive'>;
  /** Deletes the bytes of blobs the repository queued with the versions' deletion (the storage-upkeep service's). */
  deleteQueuedBlobs(keys: readonly string[]): Promise<unknown>;
  clock: Clock;
}) {
  const { versions, files, clock } = deps;

  async function requireFile(userId: string, fileId: string): Promise<FilesTable> {
    const file = await files.findLive(userId, fileId);
    if (!file) throw notFound('File not found', 'FILE_NOT_FOUND');
    return file;
  }

  async function requireVersion(userId: string, fileId: string, versionId: string): Promise<{ file: FilesTable; version: VersionRow }> {
    const file = await requireFile(userId, fileId);
    const version = await versions.find(userId, fileId, versionId);
    if (!version) throw notFound('Version not found', 'VERSION_NOT_FOUND');
    return { file, version };
  }

  return {
    requireVersion,

    async list(userId: string, fileId: string): Promise<FileVersion[]> {
      await requireFile(userId, fileId);
      return (await versions.listForFile(userId, fileId)).map(presentVersion);
    },

    /** A version as a downloadable file: the file's name with the version's type, size, hash and bytes. */
    async versionAsFile(userId: string, fileId: string, versionId: string): Promise<FilesTable> {
      const { file, version } = await requireVersion(userId, fileId, versionId);
      return { ...file, mimetype: version.mimetype, size: version.size, sha256: version.sha256, blob_key: version.blob_key };
    },

    async restore(userId: string, fileId: string, versionId: string): Promise<FileItem> {
      await requireVersion(userId, fileId, versionId);
      if (!(await versions.restore(userId, fileId, versionId, newId(), clock.now().toISOString())))
        throw notFound('Version not found', 'VERSION_NOT_FOUND');
      return presentFile(await requireFile(userId, fileId));
    },

    async remove(userId: string, fileId: string, versionId: string): Promise<void> {
      const { version } = await requireVersion(userId, fileId, versionId);
      await deps.deleteQueuedBlobs(await versions.remove([version]));
    },

    /** The sweeper's turn: versions past retention, in batches. Answers how many went. */
    async purgeExpired(): Promise<number> {
      const before = new Date(clock.now().getTime() - VERSION_DAYS_KEPT * DAY).toISOString();
      let purged = 0;
      for (;;) {
        const expired = await versions.expired(VERSIONS_KEPT, before, 500);
        if (expired.length === 0) return purged;
        await deps.deleteQueuedBlobs(await versions.remove(expired));
        purged += expired.length;
      }
    },
  };
}

export type VersionsService = ReturnType<typeof createVersionsService>;
