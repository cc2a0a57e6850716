import type { FileItem } from '@cloudvault/contract/files';
import type { PutResult } from '../../adapters/blob-store/blob-store.ts';
import type { HashState } from '../../adapters/blob-store/hashing-stream.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import type { FilesService } from '../files/files.service.ts';
import { folderIdOf, nameConflictOf, type UploadsService } from '../files/uploads.service.ts';
import { presentFile } from '../files/files.presenter.ts';
import type { ResumableUploadRow, ResumableUploadsRepository } from './resumable-uploads.repository.ts';

/** tus's expiration extension: an upload not finished by then is removed and its reservation given back. */
export const UPLOAD_LIFETIME_MS = 24 * 60 * 60 * 1000;
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const PAGE = 200;

export interface ResumableUploadsDeps {
  uploads: Pick<UploadsService, 'reserve' | 'release' | 'target' | 'destination' | 'listStored'>;
  files: Pick<FilesService, 'requireFile'>;
  rows: ResumableUploadsRepository;
  /** Whether every byte is in (ResumableStore.isComplete). */
  bytesComplete(key: string, length: number): Promise<boolean>;
  /** The finished upload's bytes under its blob key (ResumableStore.finish). */
  finishBytes(key: string, length: number): Promise<void>;
  /** What the store keeps of an upload, removed (ResumableStore.remove). */
  removeBytes(key: string): Promise<void>;
  /** sha256 and CRC32 of the finished blob, read once: when its bytes were not all hashed on their way in. */
  hashBlob(key: string): Promise<PutResult>;
  /** The totals of a hash state that covers every byte. */
  digest(state: HashState & { sha256State: Buffer }): PutResult;
  /** Runs `work` holding the upload's lock, on whichever node. */
  withLock<T>(key: string, work: () => Promise<T>): Promise<T>;
  clock: Clock;
}

const uploadNotFound = () => notFound('Upload not found', 'UPLOAD_NOT_FOUND');

/**
 * tus uploads as files (docs/decisions/0025-resumable-uploads.md): creation applies the
 * multipart route's rules through the uploads service before any byte, holding the quota
 * and an upload slot with a reservation leased until the upload expires; finishing lists
 * the blob as a file once, however many requests or nodes try.
 */
export function createResumableUploadsService(deps: ResumableUploadsDeps) {
  const { uploads, rows, clock } = deps;
  const reservationOf = (row: ResumableUploadRow) => ({
    id: row.reservation_id,
    userId: row.user_id,
    bytes: Number(row.length),
    blobKey: row.id,
    settled: false,
    stopRenewing: () => {},
  });

  /**
   * Lists the finished upload as a file, once: under the upload's lock, a run that finds
   * the file recorded answers it; the listing's id is the reservation's, so a run after a
   * crash between listing and recording finds the file it listed (its reservation settled).
   */
  async function finish(userId: string, id: string): Promise<FileItem> {
    return deps.withLock(id, async () => {
      const row = await rows.find(userId, id);
      if (!row) throw uploadNotFound();
      // The drive's owner: the uploader, or the owner of the folder they edit.
      const ownerId = row.user_id;
      if (row.file_id !== null) return presentFile(await deps.files.requireFile(ownerId, row.file_id));
      if (row.uploader_id !== null) await requireStillEditor(row);
      await deps.finishBytes(id, Number(row.length));
      const hashed = Number(row.hashed_bytes) === Number(row.length) && row.sha256_state !== null;
      // Every byte hashed on its way in: no second read (hashed-writes.ts).
      const blob = hashed
        ? deps.digest({
            bytes: Number(row.hashed_bytes),
            crc32: Number(row.crc32),
            sha256State: Buffer.from(row.sha256_state as string, 'base64'),
          })
        : await deps.hashBlob(id);
      let file: FileItem;
      try {
        file = await uploads.listStored({
          id: row.reservation_id,
          userId: ownerId,
          actorId: userId,
          folderId: row.folder_id,
          name: row.file_name,
          declaredMimetype: row.file_type ?? undefined,
          reservation: { id: row.reservation_id, blobKey: id },
          blob,
          conflict: nameConflictOf(row.conflict),
        });
        // listStored's upload reaction queues the thumbnail job, as for every upload; a finish
        // that crashed after listing leaves it to the thumbnail backfill.
      } catch (error) {
        const listed =
          error instanceof AppError && error.code === 'UPLOAD_LEASE_LOST' ? await rows.listedAs(ownerId, row.reservation_id) : undefined;
        if (!listed) throw error;
        file = presentFile(await deps.files.requireFile(ownerId, listed));
      }
      await rows.markFinished(id, file.id);
      return file;
    });
  }

  /**
   * An editor's upload lands only while they still edit its folder: a share revoked or made
   * read-only since the upload began ends it, its bytes and the owner's quota given back,
   * with the answer the folder now gets (404, or 403 READ_ONLY_SHARE).
   */
  async function requireStillEditor(row: ResumableUploadRow): Promise<void> {
    const folderId = row.folder_id;
    const refusal = await uploads.destination(row.uploader_id as string, folderId).then(
      (destination) => (destination.ownerId === row.user_id ? undefined : notFound('Folder not found', 'FOLDER_NOT_FOUND')),
      (error: unknown) => error,
    );
    if (refusal === undefined) return;
    await deps.removeBytes(row.id);
    await uploads.release(reservationOf(row));
    await rows.delete(row.id);
    throw refusal;
  }

  return {
    finish,

    /**
     * Finishes an upload whose bytes are all in but whose finishing did not complete (its
     * node died, or the listing failed): asked by HEAD, as a client whose last PATCH went
     * unanswered asks where the upload stands. Undefined while bytes are missing.
     */
    async finishIfComplete(userId: string, row: ResumableUploadRow): Promise<FileItem | undefined> {
      if (row.file_id !== null || !(await deps.bytesComplete(row.id, Number(row.length)))) return undefined;
      return finish(userId, row.id);
    },

    /** Checks and reserves; answers the new upload's id (its blob key) and when it expires. */
    async create(
      userId: string,
      input: { length: number; metadata: Record<string, string | null> },
    ): Promise<{ id: string; expiresAt: string }> {
      const { filename, folderId, filetype } = input.metadata;
      if (!filename) throw badRequest('Upload-Metadata needs a filename', 'FILENAME_REQUIRED');
      // `fail` refuses a taken name here, before any byte; the choice is kept for the finish.
      const conflict = nameConflictOf(input.metadata.conflict);
      // Into the caller's drive, or the owner's of a folder they edit: on that owner's plan and quota.
      const target = await uploads.target(userId, folderIdOf(folderId), filename, conflict);
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + UPLOAD_LIFETIME_MS).toISOString();
      // The bytes arrive over many requests: held until the upload expires, not renewed by one.
      const reservation = await uploads.reserve(target.ownerId, input.length, { framing: 'raw', leaseUntil: expiresAt });
      try {
        await rows.insert({
          id: reservation.blobKey,
          user_id: target.ownerId,
          uploader_id: target.ownerId === userId ? null : userId,
          reservation_id: reservation.id,
          folder_id: target.folderId,
          file_name: target.name,
          file_type: filetype ?? null,
          length: input.length,
          hashed_bytes: 0,
          sha256_state: null,
          crc32: 0,
          file_id: null,
          created_at: now.toISOString(),
          expires_at: expiresAt,
          conflict: conflict ?? null,
        });
      } catch (error) {
        await uploads.release(reservation);
        throw error;
      }
      return { id: reservation.blobKey, expiresAt };
    },

    /**
     * Whether the caller's upload is finished, asked by a request that found its bytes gone:
     * once a finishing in progress has settled (its lock taken in turn), so that a PATCH racing
     * the one that finishes reads the file it listed, not the row from before.
     */
    async finishedOnceSettled(userId: string, id: string): Promise<boolean> {
      if (!ID_PATTERN.test(id)) return false;
      return deps.withLock(id, async () => (await rows.find(userId, id))?.file_id != null);
    },

    /** Where the upload's hash stands after its last PATCH (hashed-writes.ts). */
    async hashState(id: string): Promise<HashState | undefined> {
      const row = await rows.findById(id);
      if (!row) return undefined;
      return {
        bytes: Number(row.hashed_bytes),
        crc32: Number(row.crc32),
        sha256State: row.sha256_state === null ? undefined : Buffer.from(row.sha256_state, 'base64'),
      };
    },

    async saveHashState(id: string, fromBytes: number, state: HashState): Promise<void> {
      await rows.saveHashState(id, fromBytes, {
        hashedBytes: state.bytes,
        crc32: state.crc32,
        sha256State: state.sha256State?.toString('base64') ?? null,
      });
    },

    /** The caller's upload (one they send into a folder they edit included); another user's, or one gone, is a 404; one past expiry a 410. */
    async requireOwn(userId: string, id: string): Promise<ResumableUploadRow> {
      const row = ID_PATTERN.test(id) ? await rows.find(userId, id) : undefined;
      if (!row) throw uploadNotFound();
      // An editor's upload goes on only while they edit its folder: revoked is revoked at the next request.
      if (row.uploader_id !== null && row.file_id === null) await deps.withLock(row.id, () => requireStillEditor(row));
      if (row.file_id === null && row.expires_at <= clock.now().toISOString())
        throw new AppError(410, 'UPLOAD_EXPIRED', 'This upload expired unfinished; please upload the file again');
      return row;
    },

    /** tus termination: the bytes removed, the quota and the upload slot back before the answer. */
    async terminate(row: ResumableUploadRow): Promise<void> {
      await deps.withLock(row.id, async () => {
        await deps.removeBytes(row.id);
        await uploads.release(reservationOf(row));
        await rows.delete(row.id);
      });
    },

    /**
     * The expiry job: every upload past its 24 hours loses its bytes, its reservation (the
     * reconciler may have given it back already: release gives back once) and its row.
     * Finished uploads' rows go too; their files stay. Idempotent, on any number of nodes.
     */
    async expire(): Promise<number> {
      let expired = 0;
      for (;;) {
        const page = await rows.expired(clock.now().toISOString(), PAGE);
        for (const row of page) {
          // Listed by a run that died before recording it: the bytes are a file's now.
          const listed = row.file_id ?? (await rows.listedAs(row.user_id, row.reservation_id));
          if (listed === undefined) {
            await deps.removeBytes(row.id);
            await uploads.release(reservationOf(row));
            expired += 1;
          }
          await rows.delete(row.id);
        }
        if (page.length < PAGE) return expired;
      }
    },
  };
}

export type ResumableUploadsService = ReturnType<typeof createResumableUploadsService>;
