import type { Readable } from 'node:stream';
import type { FileItem } from '@cloudvault/contract/files';
import { formatBytes } from '@cloudvault/contract/format';
import { type BlobStore, BlobTooLargeError } from '../../adapters/blob-store/blob-store.ts';
import type { Clock } from '../../lib/clock.ts';
import { categorize, resolveMimetype } from '../../lib/content-types.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { PlanCatalogue } from '../plans/plans.catalogue.ts';
import type { FoldersService } from '../folders/folders.service.ts';
import { requireItemName } from '../folders/folders.service.ts';
import type { FilesRepository } from './files.repository.ts';
import { presentFile } from './files.presenter.ts';
import { firstFreeName } from '../../lib/unique-name.ts';

/** Room for the multipart boundaries and the folderId field around the file itself. */
export const MULTIPART_OVERHEAD = 64 * 1024;

export interface UploadInput {
  userId: string;
  folderId: string | null;
  fileName: string;
  declaredMimetype: string | undefined;
  body: Readable;
  /** The request's Content-Length: an upper bound of the file's size, known before any byte. */
  declaredBytes: number;
}

export interface UploadsServiceDeps {
  files: FilesRepository;
  folders: Pick<FoldersService, 'requireParent'>;
  blobs: Pick<BlobStore, 'put' | 'delete'>;
  plans: PlanCatalogue;
  /** The user's plan id, read fresh for each upload so a plan change applies at once. */
  planIdOf(userId: string): Promise<string>;
  clock: Clock;
  /** After a file is stored: the activity log, and storage alerts when usage passes 80 % or 90 %. */
  uploaded(userId: string, file: FileItem, usage: { before: number; after: number; limit: number }): Promise<void>;
}

export const tooLarge = (planName: string, maxFileSize: number) =>
  new AppError(413, 'FILE_TOO_LARGE', `This file is larger than the ${formatBytes(maxFileSize)} per-file limit of the ${planName} plan`);

/**
 * Streams one upload from the socket to the blob store: the per-file limit is checked on
 * the declared size before any byte is stored and enforced while streaming; the quota is
 * reserved atomically up front and trued up to the real size; any failure or client abort
 * removes the bytes and releases the reservation. At most the plan's number of uploads
 * run at once per user.
 */
/** Why an upload does not fit, and what the user can do about it. */
function storageFull(plan: { name: string; storageLimit: number }, used: number, needed: number): AppError {
  const limit = formatBytes(plan.storageLimit);
  if (used >= plan.storageLimit) {
    // After a downgrade: everything is kept, only new uploads wait.
    return new AppError(
      507,
      'OVER_STORAGE_LIMIT',
      `Uploads are paused: your files use ${formatBytes(used)}, more than the ${limit} of the ${plan.name} plan. Your files are safe and you can still download, share and delete them. Delete files and empty Trash to get under ${limit}, or upgrade your plan.`,
    );
  }
  return new AppError(
    507,
    'QUOTA_EXCEEDED',
    `Not enough storage: ${formatBytes(plan.storageLimit - used)} free of your ${limit}, and this upload needs ${formatBytes(needed)}. Delete files, empty Trash or upgrade your plan.`,
  );
}

export function createUploadsService(deps: UploadsServiceDeps) {
  const { files, folders, blobs, plans, clock } = deps;
  const running = new Map<string, number>();

  async function insertWithFreeName(row: Parameters<FilesRepository['insert']>[0]) {
    const name = await firstFreeName(row.name, (candidate) => files.insert({ ...row, name: candidate }));
    return { ...row, name };
  }

  return {
    /** Removes a file stored by this request (the request turned out invalid after it). */
    async discard(userId: string, file: FileItem): Promise<void> {
      const row = await files.findLive(userId, file.id);
      if (!row) return;
      await files.deleteRow(userId, row.id);
      await files.release(userId, Number(row.size));
      await blobs.delete(row.blob_key);
    },

    /**
     * Refuses an upload on its declared size alone, before any byte of it is read: the
     * plan's per-file limit and the storage left. The reservation in upload() still decides
     * between uploads that race.
     */
    async admit(userId: string, declaredBytes: number): Promise<void> {
      const plan = plans.get(await deps.planIdOf(userId));
      if (plan.maxFileSize !== null && declaredBytes > plan.maxFileSize + MULTIPART_OVERHEAD) throw tooLarge(plan.name, plan.maxFileSize);
      const used = await files.storageUsed(userId);
      if (used + declaredBytes > plan.storageLimit) throw storageFull(plan, used, declaredBytes);
    },

    /** Holds one of the user's upload slots; call the returned release when done. */
    async acquireSlot(userId: string): Promise<() => void> {
      const plan = plans.get(await deps.planIdOf(userId));
      const count = running.get(userId) ?? 0;
      if (plan.maxConcurrentUploads !== null && count >= plan.maxConcurrentUploads) {
        throw new AppError(
          429,
          'TOO_MANY_UPLOADS',
          `The ${plan.name} plan uploads ${plan.maxConcurrentUploads} files at a time. Wait for one to finish.`,
        );
      }
      running.set(userId, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (running.get(userId) ?? 1) - 1;
        if (left === 0) running.delete(userId);
        else running.set(userId, left);
      };
    },

    async upload(input: UploadInput): Promise<FileItem> {
      const plan = plans.get(await deps.planIdOf(input.userId));
      const name = requireItemName(input.fileName, 'file');
      if (plan.maxFileSize !== null && input.declaredBytes > plan.maxFileSize + MULTIPART_OVERHEAD) {
        throw tooLarge(plan.name, plan.maxFileSize);
      }
      const folderId = await folders.requireParent(input.userId, input.folderId);

      const reserved = input.declaredBytes;
      if (!(await files.reserve(input.userId, reserved, plan.storageLimit))) {
        throw storageFull(plan, await files.storageUsed(input.userId), reserved);
      }

      const blobKey = newId();
      let stored = false;
      let row: Awaited<ReturnType<typeof insertWithFreeName>>;
      try {
        const maxBytes = Math.min(reserved, plan.maxFileSize ?? Number.POSITIVE_INFINITY);
        const blob = await blobs.put(blobKey, input.body, { maxBytes });
        stored = true;
        const now = clock.now().toISOString();
        const mimetype = resolveMimetype(input.declaredMimetype, name);
        const content = { mimetype, category: categorize(mimetype), size: blob.size, sha256: blob.sha256, crc32: blob.crc32, blob_key: blobKey, updated_at: now };
        // With versioning, a taken name gets new bytes and keeps the old ones as a version.
        const versioned = plan.capabilities.versioning ? await files.addVersionByName(input.userId, folderId, name, content, newId()) : undefined;
        if (versioned) {
          row = versioned;
        } else {
          const inserted = await insertWithFreeName({ ...content, id: newId(), user_id: input.userId, folder_id: folderId, name, created_at: now, deleted_at: null, trashed_root: 0 });
          row = inserted;
          // The folder may have gone to Trash while the bytes streamed: a file must never
          // land inside a deleted folder, where Trash would purge it without counting it.
          await folders.requireParent(input.userId, folderId).catch(async (error: unknown) => {
            await files.deleteRow(input.userId, inserted.id);
            throw error;
          });
        }
      } catch (error) {
        await files.release(input.userId, reserved);
        if (stored) await blobs.delete(blobKey);
        if (error instanceof BlobTooLargeError) {
          throw plan.maxFileSize !== null && error.maxBytes >= plan.maxFileSize
            ? tooLarge(plan.name, plan.maxFileSize)
            : new AppError(400, 'BODY_LONGER_THAN_DECLARED', 'The upload is longer than its Content-Length');
        }
        throw error;
      }
      // Stored and listed from here on: only the reservation's surplus goes back, and a
      // failure now must never remove the file that was just saved.
      const after = await files.release(input.userId, reserved - Number(row.size));
      const file = presentFile(row);
      await deps.uploaded(input.userId, file, { before: after - file.size, after, limit: plan.storageLimit });
      return file;
    },
  };
}

export type UploadsService = ReturnType<typeof createUploadsService>;
