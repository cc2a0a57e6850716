import type { CopyFileBody, CopyFolderBody } from '@cloudvault/contract/copy';
import type { FileItem } from '@cloudvault/contract/files';
import type { Folder } from '@cloudvault/contract/folders';
import { BlobNotFoundError, type BlobStore } from '../../adapters/blob-store/blob-store.ts';
import type { FilesTable, FoldersTable } from '../../db/schema.ts';
import type { FolderActivityRecord } from '../activity/folder-activity.service.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, badRequest, conflict } from '../../lib/errors.ts';
import { folderNotFound, type FoldersService, requireItemName } from '../folders/folders.service.ts';
import { presentFolder } from '../folders/folders.presenter.ts';
import { type CopyStamp, copiedFileRow, planFolderCopies, type SourceFile } from './copy-tree.ts';
import type { CopyListing, CopyRepository } from './copy.repository.ts';
import type { FilesService } from './files.service.ts';
import { presentFile } from './files.presenter.ts';
import type { CopyMade, UsageChange } from './stored-reaction.ts';
import type { UploadReservation, UploadsService } from './uploads.service.ts';

/** Files read from the database per page of a folder's copy. */
const COPY_PAGE = 500;
/** Blob copies in flight at once: each is the store's work (a kernel copy, a CopyObject), so a few overlap their waits. */
const COPIES_AT_ONCE = 8;
/** Tries of the listing when a name chosen for the copy is taken by a request that did not wait for the user's lock. */
const LISTING_TRIES = 3;

export interface CopyServiceDeps {
  copies: Pick<CopyRepository, 'treeFolders' | 'treeTotals' | 'treeFilesPage' | 'listCopy'>;
  /** The source: the caller's own, or another user's inside a folder shared with the caller (docs/decisions/0047-copy-out-of-a-share.md). */
  files: Pick<FilesService, 'readableFile'>;
  folders: Pick<FoldersService, 'readableFolder'>;
  /** The destination: the caller's own folder, or one of someone else's they edit (the copy is then that owner's). */
  uploads: Pick<UploadsService, 'reserve' | 'release' | 'destination'>;
  blobs: Pick<BlobStore, 'copy' | 'delete'>;
  /** What follows a listed copy, for the drive's owner, as it follows an upload: activity, storage alerts, thumbnails (files/stored-reaction.ts). */
  copied(userId: string, copy: CopyMade, usage: UsageChange): Promise<void>;
  /** A shared folder's activity: a copy into it by an editor, by whom (docs/decisions/0061-share-roles.md). */
  recordFolderActivity?(entry: FolderActivityRecord): Promise<void>;
  clock: Clock;
  newId(): string;
}

const sourceChanged = () =>
  conflict('Something being copied was deleted or added to while it was copied. Please try again.', 'COPY_SOURCE_CHANGED');
const leaseLost = () => new AppError(503, 'COPY_LEASE_LOST', 'The copy took too long to be confirmed and was not kept. Please try again.');

/** A copy an editor made inside the owner's shared folder, as its activity shows it: an item created there. */
const copiedInto = (actorId: string, ownerId: string, item: { kind: 'file' | 'folder'; name: string; folderId: string }) =>
  ({ ownerId, folderId: item.folderId, actor: { id: actorId }, action: 'created', kind: item.kind, name: item.name }) as const;

/** Runs `work` on every item, `limit` at once; waits for all of them before answering the first failure, so none runs on after. */
async function eachAtOnce<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  const outcomes = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker));
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Copies of files and folders into the caller's own drive, from it or from a folder shared
 * with them, made by the blob store (docs/decisions/0043-server-side-copy.md): the bytes
 * never leave it. The copy is the destination's owner's: the caller's into their own drive,
 * where it counts against their quota and nothing of a sharing owner's is written
 * (docs/decisions/0047-copy-out-of-a-share.md); the owner's into a folder the caller edits,
 * on that owner's quota and plan (docs/decisions/0061-share-roles.md). The whole copy's
 * size is held up front by an upload reservation (507 before anything is written, the
 * plan's per-file limit on each file), the blobs are copied under new keys, and every row
 * is listed in one transaction that settles the reservation. A failure deletes the copied
 * blobs; a crash leaves them to the sweeper and the reservation to its expiry.
 */
export function createCopyService(deps: CopyServiceDeps) {
  const { copies, files, folders, uploads, blobs, clock, newId } = deps;

  /** Copies each source's blob under a new key and answers its new row, `placed` says where; the keys written are added to `written`. */
  async function copyBlobs(
    sources: readonly SourceFile[],
    placed: (source: SourceFile) => { folderId: string | null; name: string },
    stamp: CopyStamp,
    written: string[],
  ) {
    const rows: FilesTable[] = [];
    await eachAtOnce(sources, COPIES_AT_ONCE, async (source) => {
      const blobKey = newId();
      try {
        await blobs.copy(source.blob_key, blobKey);
      } catch (error) {
        // Purged from Trash while the copy ran: the copy would list a file without bytes.
        throw error instanceof BlobNotFoundError ? sourceChanged() : error;
      }
      written.push(blobKey);
      rows.push(copiedFileRow(source, { id: newId(), blobKey, ...placed(source) }, stamp));
    });
    return rows;
  }

  /**
   * Holds the copy's bytes, runs `copy` (which lists through `list`), and, whatever fails,
   * deletes the blobs it wrote and gives the reservation back.
   */
  async function withReservation<T>(
    userId: string,
    size: { bytes: number; largestFile: number },
    copy: (reservation: UploadReservation, written: string[]) => Promise<T>,
  ): Promise<T> {
    const reservation = await uploads.reserve(userId, size.bytes, { framing: 'raw', largestFile: size.largestFile });
    const written: string[] = [];
    try {
      return await copy(reservation, written);
    } catch (error) {
      await eachAtOnce(written, COPIES_AT_ONCE, (key) => blobs.delete(key)).catch(() => {
        // Left unreferenced: the sweeper deletes them after its grace period.
      });
      throw error;
    } finally {
      await uploads.release(reservation);
    }
  }

  /** Lists the copy's rows and settles the reservation, trying again when the chosen name was taken meanwhile. */
  async function list(
    userId: string,
    destination: string | null,
    reservation: UploadReservation,
    rows: { folders: FoldersTable[]; files: FilesTable[] },
  ): Promise<{ name: string; usage: UsageChange }> {
    const storedBytes = rows.files.reduce((total, row) => total + Number(row.size), 0);
    if (storedBytes > reservation.bytes) throw sourceChanged();
    let listing: CopyListing = { outcome: 'name-taken' };
    for (let tries = 0; tries < LISTING_TRIES && listing.outcome === 'name-taken'; tries += 1) {
      listing = await copies.listCopy({ userId, destination, reservationId: reservation.id, storedBytes, ...rows });
    }
    if (listing.outcome === 'folder-gone') throw folderNotFound();
    if (listing.outcome === 'lease-lost') throw leaseLost();
    if (listing.outcome === 'name-taken') throw conflict('Too many items of this name were added at once; please try again', 'NAME_TAKEN');
    reservation.settled = true;
    // A reservation from reserve() always knows its limit; without one (0) no alert is due.
    const usage = { before: listing.storageUsed - storedBytes, after: listing.storageUsed, limit: reservation.storageLimit ?? 0 };
    return { name: listing.name, usage };
  }

  return {
    /** A new file with the same bytes (and no versions) in a folder of the caller's own, or the root, from a file they may read. */
    async copyFile(userId: string, id: string, input: CopyFileBody): Promise<FileItem> {
      const { file: source } = await files.readableFile(userId, id);
      const name = requireItemName(input.name ?? source.name, 'file');
      const { ownerId, folderId: destination } = await uploads.destination(userId, input.folderId);
      const stamp = { userId: ownerId, now: clock.now().toISOString() };
      const size = Number(source.size);
      const copy = await withReservation(ownerId, { bytes: size, largestFile: size }, async (reservation, written) => {
        const [row] = await copyBlobs([source], () => ({ folderId: destination, name }), stamp, written);
        const listed = await list(ownerId, destination, reservation, { folders: [], files: [row!] });
        return { file: presentFile({ ...row!, name: listed.name }), usage: listed.usage };
      });
      // Once the copy is kept, outside its clean-up: a failure here must not delete listed blobs.
      await deps.copied(ownerId, { item: 'file', name: copy.file.originalName, bytes: size, files: [copy.file] }, copy.usage);
      if (ownerId !== userId && destination !== null)
        await deps.recordFolderActivity?.(
          copiedInto(userId, ownerId, { kind: 'file', name: copy.file.originalName, folderId: destination }),
        );
      return copy.file;
    },

    /**
     * The folder and everything under it, empty folders included, as a new folder in a
     * folder the caller may write into (not itself or one under it), or the root. The source is the
     * caller's or in a folder shared with them; its tree is read as its owner's. The files
     * are read and copied a page at a time.
     */
    async copyFolder(userId: string, id: string, input: CopyFolderBody): Promise<Folder> {
      const { ownerId } = await folders.readableFolder(userId, id);
      const tree = await copies.treeFolders(ownerId, id);
      const top = tree.find((folder) => folder.id === id);
      // Trashed since it was found readable.
      if (!top) throw folderNotFound();
      const name = requireItemName(input.name ?? top.name, 'folder');
      const to = await uploads.destination(userId, input.parentId);
      const destination = to.folderId;
      if (destination !== null && tree.some((folder) => folder.id === destination))
        throw badRequest('A folder cannot be copied into itself or one of its sub-folders', 'COPY_INTO_ITSELF');
      const totals = await copies.treeTotals(ownerId, id);
      const stamp = { userId: to.ownerId, now: clock.now().toISOString() };
      const plan = planFolderCopies(id, tree, { destination, topName: name }, stamp, newId);
      const copy = await withReservation(to.ownerId, { bytes: totals.bytes, largestFile: totals.largest }, async (reservation, written) => {
        const copied: FilesTable[] = [];
        let copiedBytes = 0;
        for (let after = '', page: SourceFile[] = []; ; after = page.at(-1)!.id) {
          page = await copies.treeFilesPage(ownerId, id, after, COPY_PAGE);
          if (page.length === 0) break;
          // A folder made inside the tree since it was read is not part of this copy.
          const inTree = page.filter((file) => file.folder_id !== null && plan.copyOf.has(file.folder_id));
          const placed = (file: SourceFile) => ({ folderId: plan.copyOf.get(file.folder_id!)!, name: file.name });
          for (const row of await copyBlobs(inTree, placed, stamp, written)) {
            copied.push(row);
            copiedBytes += Number(row.size);
          }
          // Files added to the tree since its size was held: refused rather than counted past the quota.
          if (copiedBytes > reservation.bytes) throw sourceChanged();
        }
        const listed = await list(to.ownerId, destination, reservation, { folders: plan.rows, files: copied });
        return { folder: presentFolder({ ...plan.rows[0]!, name: listed.name }), files: copied, bytes: copiedBytes, usage: listed.usage };
      });
      // One reaction for the whole folder, once it is kept (see copyFile).
      await deps.copied(to.ownerId, { item: 'folder', name: copy.folder.name, bytes: copy.bytes, files: copy.files }, copy.usage);
      if (to.ownerId !== userId && destination !== null)
        await deps.recordFolderActivity?.(
          copiedInto(userId, to.ownerId, { kind: 'folder', name: copy.folder.name, folderId: destination }),
        );
      return copy.folder;
    },
  };
}

export type CopyService = ReturnType<typeof createCopyService>;
