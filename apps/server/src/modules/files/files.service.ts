import type { FileItem, NameConflict, UpdateFileBody } from '@cloudvault/contract/files';
import type { Clock } from '../../lib/clock.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { FoldersService } from '../folders/folders.service.ts';
import { folderNotFound, invalidListingCursor, readOnlyShare, requireItemName, shareRootLocked } from '../folders/folders.service.ts';
import { fitsPosition } from '../../db/sorted-listing.ts';
import { firstFreeName } from '../../lib/unique-name.ts';
import { encodeListingCursor, type ListingPage, type ListingPosition } from '../../lib/listing-pages.ts';
import type { FileRow, FilesRepository } from './files.repository.ts';
import { presentFile } from './files.presenter.ts';
import type { ListingCache } from './listing-cache.ts';

/** Search answers are for a person scanning a list; past this they should type more. */
const SEARCH_LIMIT = 500;
/** FilesResponse around the database's JSON array of files. */
const FILES_RESPONSE = { before: '{"files":', after: '}' };
/** The viewer of a listing without stars: no user has the empty id. */
const NO_STARS = '';
/** Rows per query of a sorted listing asked for whole. */
const SORTED_PAGE = 1000;

export interface FilesServiceDeps {
  files: FilesRepository;
  folders: Pick<FoldersService, 'requireParent' | 'readableFolder' | 'writableFolder' | 'writableDestination' | 'recordMove'>;
  /** Renames and moves go into the account's activity log, with the names of the time. */
  activity: Pick<ActivityService, 'record'>;
  /** What a share of someone else's file on its own grants the caller, or null (shares module: privateFileShare). */
  sharedFile(userId: string, ownerId: string, fileId: string): Promise<{ shareId: string; role: 'viewer' | 'editor' } | null>;
  clock: Clock;
  listings: ListingCache;
}

/**
 * A file the caller may change, and whose it is: their own (`editorRootId` null), one inside
 * a folder they edit (`editorRootId` that share's folder), or one shared with them on its
 * own as an editor (`sharedAlone`: it may be renamed and given new versions, not moved or
 * deleted, as it is the share itself).
 */
export type WritableFile = { file: FileRow; ownerId: string; editorRootId: string | null; sharedAlone: boolean };

/** A file the caller may read, whose it is, and what they may do with it. */
export type ReadableFile = { file: FileRow; ownerId: string; role: 'owner' | 'viewer' | 'editor' };

export function createFilesService({ files, folders, clock, listings, sharedFile, activity }: FilesServiceDeps) {
  /** The caller's live file, or 404 whether it is missing, in Trash or someone else's. */
  async function requireFile(userId: string, id: string): Promise<FileRow> {
    const file = await files.findLive(userId, id);
    if (!file) throw notFound('File not found', 'FILE_NOT_FOUND');
    return file;
  }

  /**
   * A file the caller may read: their own (`role` owner), one shared with them, or one inside
   * a folder shared with them, with the role the share gives (docs/decisions/0061-share-roles.md).
   */
  async function readableFile(userId: string, id: string): Promise<ReadableFile> {
    const own = await files.findLive(userId, id);
    if (own) return { file: own, ownerId: userId, role: 'owner' };
    const other = await files.findLiveAnyOwner(id);
    // A file shared with the caller on its own, wherever it lives in the owner's drive.
    const fileShare = other ? await sharedFile(userId, other.user_id, other.id) : null;
    if (other && fileShare) return { file: other, ownerId: other.user_id, role: fileShare.role };
    // Unreadable is the answer of a missing file: the folder's own 404 would tell that the id exists.
    const readable = other?.folder_id
      ? await folders.readableFolder(userId, other.folder_id).catch((error: unknown) => {
          if (error instanceof AppError && error.status === 404) return undefined;
          throw error;
        })
      : undefined;
    if (other && readable) return { file: other, ownerId: readable.ownerId, role: readable.access?.role ?? 'owner' };
    throw notFound('File not found', 'FILE_NOT_FOUND');
  }

  /**
   * A file the caller may change (WritableFile). A viewer's is 403 READ_ONLY_SHARE; a file
   * they cannot read is 404.
   */
  async function writableFile(userId: string, id: string): Promise<WritableFile> {
    const own = await files.findLive(userId, id);
    if (own) return { file: own, ownerId: userId, editorRootId: null, sharedAlone: false };
    const other = await files.findLiveAnyOwner(id);
    const inEditedFolder = other?.folder_id
      ? await folders.writableFolder(userId, other.folder_id).catch((error: unknown) => {
          if (error instanceof AppError && (error.status === 403 || error.status === 404)) return undefined;
          throw error;
        })
      : undefined;
    if (other && inEditedFolder)
      return { file: other, ownerId: inEditedFolder.ownerId, editorRootId: inEditedFolder.editorRootId, sharedAlone: false };
    // Readable otherwise (404 if not): as an editor of the file alone, or only to view.
    const readable = await readableFile(userId, id);
    if (readable.role !== 'editor') throw readOnlyShare();
    return { file: readable.file, ownerId: readable.ownerId, editorRootId: null, sharedAlone: true };
  }

  /**
   * Renames or moves a file to `changes.name`, and when another file holds that name there,
   * does what `choice` says (docs/decisions/0050-name-clashes.md): `keep-both` takes the
   * next free "name (n).ext", `replace` puts the other file in Trash; otherwise 409
   * NAME_TAKEN with its id. Answers the name the file got.
   */
  async function placeUnderName(
    userId: string,
    id: string,
    choice: NameConflict | undefined,
    changes: Pick<FileRow, 'name' | 'folder_id' | 'updated_at'>,
  ): Promise<string> {
    if (choice === 'keep-both')
      return firstFreeName(changes.name, (candidate) => files.update(userId, id, { ...changes, name: candidate }));
    const placed = choice === 'replace' ? await files.updateReplacing(userId, id, changes) : await files.update(userId, id, changes);
    if (placed) return changes.name;
    const existing = await files.findLiveByName(userId, changes.folder_id, changes.name);
    throw new AppError(
      409,
      'NAME_TAKEN',
      `A file named "${changes.name}" already exists there`,
      existing ? { existingId: existing.id } : {},
    );
  }

  return {
    requireFile,
    /** The owner's live file, or undefined: lookups for other modules (shares, versions), which answer their own 404s. */
    findLive: files.findLive,
    /** A folder's live files as rows (shared folders' views). */
    listLive: files.listLive,
    readableFile,
    writableFile,

    /**
     * The folder's files as FilesResponse JSON in UTF-8, ready to send. The caller's own
     * folder (or root) is checked and listed by one query, whose answer is kept while the
     * database is unchanged: the check's answer cannot change either.
     */
    async listJson(userId: string, folderId: string | null): Promise<Buffer> {
      const own = await listings.get(`${userId}/${folderId ?? ''}`, () => files.listOwnLiveJson(userId, folderId, FILES_RESPONSE));
      if (own) return own;
      // Not a live folder of theirs (the root always is): one shared with them, or a 404.
      const { ownerId } = await folders.readableFolder(userId, folderId as string);
      // Readers of a shared folder get the owner's listing without the owner's stars (only owners
      // star, so none is theirs): the same bytes for every reader, kept once.
      const shared = await listings.get(`${ownerId}/${folderId}/shared`, () =>
        files.listOwnLiveJson(ownerId, folderId, FILES_RESPONSE, NO_STARS),
      );
      // Trashed between the two queries.
      if (!shared) throw folderNotFound();
      return shared;
    },

    /**
     * The folder's files in the page's order as FilesResponse JSON in UTF-8, with the cursor
     * of the next page (null after the last) when the page has a limit; without one, every
     * file, read a page at a time. Each file is its stored listing entry, as in listJson.
     */
    async listSortedJson(userId: string, folderId: string | null, page: ListingPage): Promise<Buffer> {
      if (page.after !== null && !fitsPosition('files', page.sort, page.after)) throw invalidListingCursor();
      const ownerId = folderId === null ? userId : (await folders.readableFolder(userId, folderId)).ownerId;
      const read = (after: ListingPosition | null, limit: number) =>
        files.listLiveSortedPage(ownerId, folderId, page, after, limit, userId);
      const entries: string[] = [];
      if (page.limit === null) {
        for (let after = page.after; ;) {
          const rows = await read(after, SORTED_PAGE);
          for (const row of rows) entries.push(row.entry);
          if (rows.length < SORTED_PAGE) break;
          after = rows.at(-1)!.position;
        }
        return Buffer.from(`{"files":[${entries.join(',')}]}`);
      }
      // One row past the page tells whether another page follows.
      const rows = await read(page.after, page.limit + 1);
      const shown = rows.slice(0, page.limit);
      for (const row of shown) entries.push(row.entry);
      const last = shown.at(-1);
      const nextCursor = rows.length > page.limit && last ? encodeListingCursor('files', page, last.position) : null;
      return Buffer.from(`{"files":[${entries.join(',')}],"nextCursor":${JSON.stringify(nextCursor)}}`);
    },

    async search(userId: string, term: string): Promise<FileItem[]> {
      const trimmed = term.trim();
      if (trimmed === '') return [];
      return (await files.searchLive(userId, trimmed, SEARCH_LIMIT)).map(presentFile);
    },

    /**
     * Renames or moves the caller's file, or (an editor) one of the owner's within the
     * folder shared with them; a file shared on its own is renamed where it is.
     */
    async update(userId: string, id: string, input: UpdateFileBody): Promise<FileItem> {
      const { file, ownerId, editorRootId, sharedAlone } = await writableFile(userId, id);
      const name = input.name === undefined ? file.name : requireItemName(input.name, 'file');
      if (sharedAlone && input.folderId !== undefined && input.folderId !== file.folder_id) throw shareRootLocked('file');
      const folderId =
        input.folderId === undefined || sharedAlone
          ? file.folder_id
          : await folders.writableDestination(userId, { ownerId, editorRootId }, input.folderId);
      const updatedAt = clock.now().toISOString();
      const moved = await placeUnderName(ownerId, id, input.conflict, { name, folder_id: folderId, updated_at: updatedAt });
      if (moved !== file.name) await activity.record(userId, 'rename', { item: 'file', from: file.name, name: moved });
      if (folderId !== file.folder_id) await activity.record(userId, 'move', { item: 'file', name: moved });
      await folders.recordMove(
        { ownerId, actorId: userId, kind: 'file', before: { name: file.name, folderId: file.folder_id } },
        { name: moved, folderId },
      );
      return presentFile({ ...file, name: moved, folder_id: folderId, updated_at: updatedAt });
    },
  };
}

export type FilesService = ReturnType<typeof createFilesService>;
