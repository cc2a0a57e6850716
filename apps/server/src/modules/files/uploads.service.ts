import type { Readable } from 'node:stream';
import type { FileItem } from '@cloudvault/contract/files';
import { formatBytes } from '@cloudvault/contract/format';
import { type BlobStore, BlobTooLargeError, type PutResult } from '../../adapters/blob-store/blob-store.ts';
import type { Clock } from '../../lib/clock.ts';
import { categorize, resolveMimetype } from '../../lib/content-types.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { PlanCatalogue } from '../plans/plans.catalogue.ts';
import type { FoldersService } from '../folders/folders.service.ts';
import { requireItemName } from '../folders/folders.service.ts';
import type { FileRow, FilesRepository } from './files.repository.ts';
import type { UploadReservationsRepository } from './upload-reservations.repository.ts';
import { presentFile } from './files.presenter.ts';
import { firstFreeName } from '../../lib/unique-name.ts';

/** Room for the multipart boundaries and the folderId field around the file itself. */
export const MULTIPART_OVERHEAD = 64 * 1024;

export interface UploadInput {
  userId: string;
  folderId: string | null;
  fileName: string;
  declaredMimetype: string | undefined;
  /** A request's body (multipart part or WebDAV PUT): its chunks are freed once stored, so nothing else may hold them. */
  body: Readable;
  /** Made by reserve() before the body was read; settled here when the file is listed. */
  reservation: UploadReservation;
  /**
   * A live file of the same name gets the new bytes, keeping its id (WebDAV's PUT): its old
   * bytes become a version where the plan keeps versions and are freed otherwise. Without
   * it, plans without versioning list the upload under the next free name.
   */
  replace?: boolean;
}

/** An upload's hold on the quota and on one of the plan's uploads at once, until released. */
export interface UploadReservation {
  id: string;
  userId: string;
  /** The request's Content-Length: an upper bound of the file's size, known before any byte. */
  bytes: number;
  /** The length was not declared: `bytes` is what the plan allowed, and a body passing it is refused as too large or over quota. */
  lengthUnknown?: boolean;
  blobKey: string;
  /** Set once the file is listed: the reservation went with it, nothing is left to give back. */
  settled: boolean;
  stopRenewing(): void;
}

export interface UploadsServiceDeps {
  files: Pick<FilesRepository, 'insertUploaded' | 'addVersionByName' | 'discardUploaded' | 'storageUsed'>;
  reservations: UploadReservationsRepository;
  folders: Pick<FoldersService, 'requireParent'>;
  blobs: Pick<BlobStore, 'put'>;
  plans: PlanCatalogue;
  /** The user's plan id, read fresh for each upload so a plan change applies at once. */
  planIdOf(userId: string): Promise<string>;
  clock: Clock;
  /** How long a reservation lives unrenewed: past it, any node takes the upload's node for dead (UPLOAD_LEASE_SECONDS). */
  leaseMs: number;
  /** Deletes the bytes of blobs this service just queued for deletion (the storage-upkeep service's). */
  deleteQueuedBlobs(keys: readonly string[]): Promise<unknown>;
  /** After a file is stored: the activity log, and storage alerts when usage passes 80 % or 90 %. */
  uploaded(userId: string, file: FileItem, usage: { before: number; after: number; limit: number }): Promise<void>;
}

export interface ReserveOptions {
  /** Allowed above the plan's per-file limit for what wraps the file (multipart boundaries by default). */
  overhead?: number;
  /** A fixed lease, not renewed: an upload that outlives requests holds its reservation until then. */
  leaseUntil?: string;
}

type UploadedContent = Pick<FileRow, 'mimetype' | 'category' | 'size' | 'sha256' | 'crc32' | 'blob_key' | 'updated_at'>;

export const tooLarge = (planName: string, maxFileSize: number) =>
  new AppError(413, 'FILE_TOO_LARGE', `This file is larger than the ${formatBytes(maxFileSize)} per-file limit of the ${planName} plan`);

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

const tooManyUploads = (plan: { name: string; maxConcurrentUploads: number | null }) =>
  new AppError(429, 'TOO_MANY_UPLOADS', `The ${plan.name} plan uploads ${plan.maxConcurrentUploads} files at a time. Wait for one to finish.`);

/** The reservation was given back by another node while this one stored the bytes. */
const leaseLost = () =>
  new AppError(503, 'UPLOAD_LEASE_LOST', 'The upload took too long to be confirmed and was not kept. Please upload the file again.');

/**
 * Streams one upload from the socket to the blob store: the per-file limit is checked on
 * the declared size before any byte is read and enforced while streaming; the quota and
 * the plan's uploads at once are held by a leased reservation row, made atomically up front
 * (reserve) and settled with the file's listing; any failure or client abort gives it back
 * and deletes the bytes through the deletion queue (release;
 * docs/decisions/0021-crash-safe-storage.md).
 */
export function createUploadsService(deps: UploadsServiceDeps) {
  const { files, reservations, folders, blobs, plans, clock, leaseMs } = deps;
  const leaseUntil = () => new Date(clock.now().getTime() + leaseMs).toISOString();

  /**
   * Renews the reservation's lease every third of it while the bytes stream, so only a
   * node that stops (killed, frozen, cut off from the database) loses it. A failed renewal
   * is retried at the next tick; the lease's other two thirds leave room for that.
   */
  function keepLeased(reservationId: string): () => void {
    const timer = setInterval(() => {
      reservations.renew(reservationId, leaseUntil()).then(
        // Gone: settled, or given back by a node that took this one for dead.
        (renewed) => renewed || clearInterval(timer),
        () => {},
      );
    }, leaseMs / 3);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Lists the stored blob as a file, or as the new content of the same-named file (versioning). */
  async function complete(
    input: { id: string; userId: string; folderId: string | null; name: string; reservationId: string; versioning: boolean; replace?: boolean },
    content: UploadedContent,
  ) {
    const { userId, folderId, reservationId } = input;
    // With versioning, a taken name gets new bytes and keeps the old ones as a version;
    // replacing without versioning frees the old ones.
    const replaceTaken = async () => {
      const replaced = await files.addVersionByName(userId, folderId, input.name, content, input.versioning ? input.id : null, reservationId);
      if (replaced === 'lease-lost') throw leaseLost();
      if (replaced !== 'no-such-file' && replaced.dropped) await deps.deleteQueuedBlobs([replaced.dropped]);
      return replaced;
    };
    if (input.versioning || input.replace) {
      const replaced = await replaceTaken();
      if (replaced !== 'no-such-file') return replaced;
    }
    const row = { ...content, id: input.id, user_id: userId, folder_id: folderId, name: input.name, created_at: content.updated_at, deleted_at: null, trashed_root: 0 };
    let storageUsed = 0;
    let replacedMeanwhile: { row: FileRow; storageUsed: number } | undefined;
    const name = await firstFreeName(input.name, async (candidate) => {
      const completion = await files.insertUploaded({ ...row, name: candidate }, reservationId);
      if (completion.outcome === 'name-taken' && input.replace) {
        // Another request listed the name since: this upload replaces that file's bytes.
        const again = await replaceTaken();
        if (again === 'no-such-file') throw new AppError(409, 'NAME_TAKEN', `"${input.name}" changed while it was uploaded. Please try again.`);
        replacedMeanwhile = again;
        return true;
      }
      if (completion.outcome === 'name-taken') return false;
      if (completion.outcome === 'lease-lost') throw leaseLost();
      if (completion.outcome === 'folder-gone') {
        // The folder went to Trash while the bytes streamed: a file must never land inside
        // a deleted folder, where Trash would purge it without counting it.
        await folders.requireParent(userId, folderId);
        throw notFound('Folder not found', 'FOLDER_NOT_FOUND');
      }
      storageUsed = completion.storageUsed;
      return true;
    });
    if (replacedMeanwhile) return replacedMeanwhile;
    return { row: { ...row, name }, storageUsed };
  }

  return {
    /** Removes a file stored by this request (the request turned out invalid after it). */
    async discard(userId: string, file: FileItem): Promise<void> {
      await deps.deleteQueuedBlobs(await files.discardUploaded(userId, file.id));
    },

    /**
     * Refuses an upload on its declared size alone, before any byte of it is read
     * (docs/decisions/0018-early-answers.md): the plan's per-file limit, its uploads at once
     * and the storage left, the last two held by a leased reservation made atomically for
     * every node (docs/decisions/0021-crash-safe-storage.md). Renewed until released.
     * Without a declared size, holds what the plan allows one file, capped by the storage
     * left (docs/decisions/0039-webdav-bounds-and-unknown-length.md).
     */
    async reserve(userId: string, declaredBytes: number | undefined, options: ReserveOptions = {}): Promise<UploadReservation> {
      const plan = plans.get(await deps.planIdOf(userId));
      const overhead = options.overhead ?? MULTIPART_OVERHEAD;
      if (declaredBytes !== undefined && plan.maxFileSize !== null && declaredBytes > plan.maxFileSize + overhead) throw tooLarge(plan.name, plan.maxFileSize);
      // Of unknown length (a chunked WebDAV PUT): as much as one file may take, the surplus given back when it is stored.
      const bytes = declaredBytes ?? plan.maxFileSize ?? plan.storageLimit;
      const reservation = { id: newId(), userId, bytes, blobKey: newId() };
      const request = {
        ...reservation,
        now: clock.now().toISOString(),
        leaseUntil: options.leaseUntil ?? leaseUntil(),
        storageLimit: plan.storageLimit,
        maxConcurrentUploads: plan.maxConcurrentUploads,
      };
      const outcome = declaredBytes === undefined ? await reservations.reserveUpTo(request) : await reservations.reserve(request);
      if (outcome === 'too-many-uploads') throw tooManyUploads(plan);
      if (outcome === 'storage-full') throw storageFull(plan, await files.storageUsed(userId), declaredBytes ?? 1);
      return {
        ...reservation,
        ...(typeof outcome === 'number' ? { bytes: outcome, lengthUnknown: true } : {}),
        settled: false,
        stopRenewing: options.leaseUntil ? () => {} : keepLeased(reservation.id),
      };
    },

    /**
     * Ends the request's hold: a reservation the upload settled is gone already; one it did
     * not gives its bytes back, and whatever it stored is deleted (queued first, in the same
     * transaction). Safe to call more than once.
     */
    async release(reservation: UploadReservation): Promise<void> {
      reservation.stopRenewing();
      if (reservation.settled) return;
      const queued = await reservations.abandon(reservation.userId, reservation.id);
      if (queued) await deps.deleteQueuedBlobs([queued]);
    },

    /**
     * The name and folder rules every upload passes before its bytes: a valid name, and a
     * live folder of the user's own (another user's is a 404).
     */
    async target(userId: string, folderId: string | null, fileName: string): Promise<{ name: string; folderId: string | null }> {
      const name = requireItemName(fileName, 'file');
      return { name, folderId: await folders.requireParent(userId, folderId) };
    },

    /**
     * Lists bytes stored under the reservation's blob key as a file named by the usual rules
     * (`(1)` on a clash, a new version with versioning), settling the reservation in the same
     * transaction. `id` becomes the new file's id, or the new version's: a caller that may
     * finish twice finds what a first run listed by it (lease-lost then means it is listed).
     */
    async listStored(input: { id: string; userId: string; folderId: string | null; name: string; declaredMimetype: string | undefined; reservation: Pick<UploadReservation, 'id' | 'blobKey'>; blob: PutResult }): Promise<FileItem> {
      const { userId, reservation, blob } = input;
      const plan = plans.get(await deps.planIdOf(userId));
      const mimetype = resolveMimetype(input.declaredMimetype, input.name);
      const content = { mimetype, category: categorize(mimetype), size: blob.size, sha256: blob.sha256, crc32: blob.crc32, blob_key: reservation.blobKey, updated_at: clock.now().toISOString() };
      const stored = await complete({ id: input.id, userId, folderId: input.folderId, name: input.name, reservationId: reservation.id, versioning: plan.capabilities.versioning }, content);
      const file = presentFile(stored.row);
      await deps.uploaded(userId, file, { before: stored.storageUsed - file.size, after: stored.storageUsed, limit: plan.storageLimit });
      return file;
    },

    async upload(input: UploadInput): Promise<FileItem> {
      const { reservation } = input;
      const plan = plans.get(await deps.planIdOf(input.userId));
      const name = requireItemName(input.fileName, 'file');
      const folderId = await folders.requireParent(input.userId, input.folderId);
      let stored;
      try {
        const maxBytes = Math.min(reservation.bytes, plan.maxFileSize ?? Number.POSITIVE_INFINITY);
        // The body is a request's (multipart or WebDAV PUT): its chunks are freed once stored.
        const blob = await blobs.put(reservation.blobKey, input.body, { maxBytes, freeChunks: true });
        const mimetype = resolveMimetype(input.declaredMimetype, name);
        const content = { mimetype, category: categorize(mimetype), size: blob.size, sha256: blob.sha256, crc32: blob.crc32, blob_key: reservation.blobKey, updated_at: clock.now().toISOString() };
        stored = await complete(
          { id: newId(), userId: input.userId, folderId, name, reservationId: reservation.id, versioning: plan.capabilities.versioning, replace: input.replace ?? false },
          content,
        );
        reservation.settled = true;
      } catch (error) {
        if (error instanceof BlobTooLargeError) {
          if (plan.maxFileSize !== null && error.maxBytes >= plan.maxFileSize) throw tooLarge(plan.name, plan.maxFileSize);
          // Of unknown length, the body passed the storage that was left when it began.
          if (reservation.lengthUnknown) throw storageFull(plan, (await files.storageUsed(input.userId)) - reservation.bytes, error.maxBytes + 1);
          throw new AppError(400, 'BODY_LONGER_THAN_DECLARED', 'The upload is longer than its Content-Length');
        }
        throw error;
      }
      const file = presentFile(stored.row);
      await deps.uploaded(input.userId, file, { before: stored.storageUsed - file.size, after: stored.storageUsed, limit: plan.storageLimit });
      return file;
    },
  };
}

export type UploadsService = ReturnType<typeof createUploadsService>;
