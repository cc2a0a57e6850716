import type { FileItem } from '@cloudvault/contract/files';
import type { FileVersion } from '@cloudvault/contract/versions';
import { formatBytes } from '@cloudvault/contract/format';
import type { FilesTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { FolderActivityRecord } from '../activity/folder-activity.service.ts';
import type { FilesService } from '../files/files.service.ts';
import { readOnlyShare } from '../folders/folders.service.ts';
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

/** A version's deletion asked by an editor: it cannot be undone, unlike their deletes that go to the owner's Trash. */
const ownerOnly = () => forbidden("Only the file's owner can delete its versions", 'OWNER_ONLY');

/** A file whose versions the caller may use: whose it is, and whether the caller is its owner. */
type VersionedFile = { file: FilesTable; ownerId: string; isOwner: boolean };

/**
 * A file's earlier versions: listed, downloaded, restored (swapped with the current
 * bytes), deleted, and purged past retention. Existing versions stay usable after a
 * downgrade; only new uploads stop making them. In a folder shared with the caller as an
 * editor, they list, download and restore the owner's versions (a restore makes a new
 * version, as an upload of theirs does); deleting one stays the owner's. A viewer's is 403
 * READ_ONLY_SHARE: history is part of editing (docs/decisions/0061-share-roles.md).
 */
export function createVersionsService(deps: {
  versions: VersionsRepository;
  files: Pick<FilesService, 'readableFile'>;
  /** A shared folder's activity: a version restored by an editor, by whom (docs/decisions/0061-share-roles.md). */
  recordFolderActivity?(entry: FolderActivityRecord): Promise<void>;
  /** Deletes the bytes of blobs the repository queued with the versions' deletion (the storage-upkeep service's). */
  deleteQueuedBlobs(keys: readonly string[]): Promise<unknown>;
  clock: Clock;
}) {
  const { versions, files, clock } = deps;

  /** The caller's file, or the owner's they edit; a viewer's is 403, anything unreadable 404 (files' readableFile). */
  async function requireFile(userId: string, fileId: string): Promise<VersionedFile> {
    const { file, ownerId, role } = await files.readableFile(userId, fileId);
    if (role === 'viewer') throw readOnlyShare();
    return { file, ownerId, isOwner: role === 'owner' };
  }

  async function requireVersion(userId: string, fileId: string, versionId: string): Promise<VersionedFile & { version: VersionRow }> {
    const found = await requireFile(userId, fileId);
    const version = await versions.find(found.ownerId, fileId, versionId);
    if (!version) throw notFound('Version not found', 'VERSION_NOT_FOUND');
    return { ...found, version };
  }

  return {
    requireVersion,

    async list(userId: string, fileId: string): Promise<FileVersion[]> {
      const { ownerId } = await requireFile(userId, fileId);
      return (await versions.listForFile(ownerId, fileId)).map(presentVersion);
    },

    /** A version as a downloadable file: the file's name with the version's type, size, hash and bytes. */
    async versionAsFile(userId: string, fileId: string, versionId: string): Promise<FilesTable> {
      const { file, version } = await requireVersion(userId, fileId, versionId);
      return { ...file, mimetype: version.mimetype, size: version.size, sha256: version.sha256, blob_key: version.blob_key };
    },

    /** Swaps the version with the current bytes, in the owner's drive and change journal whoever asks. */
    async restore(userId: string, fileId: string, versionId: string): Promise<FileItem> {
      const { ownerId } = await requireVersion(userId, fileId, versionId);
      if (!(await versions.restore(ownerId, fileId, versionId, newId(), clock.now().toISOString())))
        throw notFound('Version not found', 'VERSION_NOT_FOUND');
      const file = presentFile((await requireFile(userId, fileId)).file);
      if (ownerId !== userId && file.folderId !== null)
        await deps.recordFolderActivity?.({
          ownerId,
          folderId: file.folderId,
          actor: { id: userId },
          action: 'updated',
          kind: 'file',
          name: file.originalName,
          details: { restoredVersion: versionId },
        });
      return file;
    },

    async remove(userId: string, fileId: string, versionId: string): Promise<void> {
      const { version, isOwner } = await requireVersion(userId, fileId, versionId);
      if (!isOwner) throw ownerOnly();
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
