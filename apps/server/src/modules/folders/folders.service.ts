import type { CreateFolderBody, Folder, UpdateFolderBody } from '@cloudvault/contract/folders';
import { cleanItemName, hasInvisibleCharacter } from '@cloudvault/contract/validation';
import { inPages } from '../../db/pages.ts';
import { fitsPosition, positionOf } from '../../db/sorted-listing.ts';
import { encodeListingCursor, type ListingPage } from '../../lib/listing-pages.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { FolderActivityRecord } from '../activity/folder-activity.service.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { firstFreeName } from '../../lib/unique-name.ts';
import type { FolderRow, FoldersRepository } from './folders.repository.ts';
import { presentFolder } from './folders.presenter.ts';

/** A folder that is missing, in Trash, or someone else's and not shared with the caller: one answer for all. */
export const folderNotFound = () => notFound('Folder not found', 'FOLDER_NOT_FOUND');
/** A change asked of a folder or file the caller may only view (docs/decisions/0061-share-roles.md). */
export const readOnlyShare = () =>
  forbidden('You can view this shared item but not change it: ask its owner to make you an editor', 'READ_ONLY_SHARE');
/**
 * What an editor asks of the folder or file a share is of: it stays as its owner placed it
 * (docs/decisions/0061-share-roles.md).
 */
export const shareRootLocked = (what: 'folder' | 'file' = 'folder') =>
  forbidden(`Only its owner can rename, move or delete the shared ${what} itself`, 'SHARE_ROOT_LOCKED');
/** Folders per query of a listing. */
const LIST_PAGE = 500;

export interface FoldersServiceDeps {
  folders: FoldersRepository;
  clock: Clock;
  /** Renames and moves go into the account's activity log, with the names of the time. */
  activity: Pick<ActivityService, 'record'>;
  /** Of an owner's path (top first), what the private shares on it grant the caller, if any. */
  privateShareAccess(userId: string, ownerId: string, path: FolderRow[]): Promise<ShareAccess | null>;
  /** What happens inside a folder goes into its activity, read by its owner and members (best effort). */
  recordFolderActivity(entry: FolderActivityRecord): Promise<void>;
}

/**
 * How someone else's folder is reached through the private shares on its path
 * (docs/decisions/0061-share-roles.md). Shares nest: a viewer of a folder may be an editor
 * of one inside it, and is an editor only there.
 */
export interface ShareAccess {
  /** The topmost folder of the path shared with the caller: where their view starts. */
  rootId: string;
  /** The share that grants the role (the editor's share when there is one). */
  shareId: string;
  role: 'viewer' | 'editor';
  /** The topmost folder shared with the caller as an editor: their changes stay under it. Null for a viewer. */
  editorRootId: string | null;
  /** Whether a share on the path lets the caller share further. */
  mayReshare: boolean;
}

/**
 * Whose folder a reader sees: their own (`access` null), or someone's shared with them
 * (then the path from the shared folder down, and what the shares grant).
 */
export type ReadableFolder = { ownerId: string; sharedPath: FolderRow[] | null; access: ShareAccess | null };

/** Whose folder a writer changes: their own (`editorRootId` null), or one they edit inside `editorRootId`. */
export type WritableFolder = { ownerId: string; editorRootId: string | null };

/** A cursor of the right shape for another table or sort: tampered with, or from another listing. */
export const invalidListingCursor = () =>
  badRequest('The cursor does not fit this listing: start again without a cursor', 'INVALID_CURSOR');

/** `parentId` or `folderId` as a client sends it: absent, empty or the string "null" means the root. */
export const rootOr = (id: string | undefined): string | null => (!id || id === 'null' ? null : id);

/** A folder name as typed (composed, NFC), or a 400 that says what is wrong with it. */
export function requireItemName(name: string, what: 'folder' | 'file'): string {
  if (hasInvisibleCharacter(name)) {
    throw badRequest(
      `A ${what} name cannot hold invisible characters (such as a zero-width space, a soft hyphen or a byte order mark), as they make two names look the same`,
      'INVALID_NAME',
    );
  }
  const cleaned = cleanItemName(name);
  if (!cleaned) throw badRequest(`Please enter a ${what} name (1 to 255 characters, not "." or "..")`, 'INVALID_NAME');
  return cleaned;
}

export function createFoldersService({ folders, clock, privateShareAccess, activity, recordFolderActivity }: FoldersServiceDeps) {
  /** The caller's live folder, or 404 whether it is missing, deleted or someone else's. */
  async function requireFolder(userId: string, id: string) {
    const folder = await folders.findLive(userId, id);
    if (!folder) throw folderNotFound();
    return folder;
  }

  /** Resolves a parent id given by the client: null is the root, anything else must be the caller's. */
  async function requireParent(userId: string, parentId: string | null | undefined): Promise<string | null> {
    if (parentId === null || parentId === undefined) return null;
    await requireFolder(userId, parentId);
    return parentId;
  }

  /**
   * A folder the caller may read: their own, or one inside a folder shared with them
   * privately (read-only; docs/product.md#shared-with-me). Anything else is 404.
   */
  async function readableFolder(userId: string, id: string): Promise<ReadableFolder> {
    if (await folders.findLive(userId, id)) return { ownerId: userId, sharedPath: null, access: null };
    const other = await folders.findLiveAnyOwner(id);
    if (other) {
      const path = await folders.pathTo(other.user_id, id);
      const access = await privateShareAccess(userId, other.user_id, path);
      if (access) {
        const sharedPath = path.slice(path.findIndex((folder) => folder.id === access.rootId));
        return { ownerId: other.user_id, sharedPath, access };
      }
    }
    throw folderNotFound();
  }

  /**
   * A folder the caller may change: their own, or one inside a folder shared with them as an
   * editor. A viewer's attempt is 403 READ_ONLY_SHARE; anything unreadable stays 404.
   */
  async function writableFolder(userId: string, id: string): Promise<WritableFolder> {
    const { ownerId, access } = await readableFolder(userId, id);
    if (!access) return { ownerId, editorRootId: null };
    if (access.role !== 'editor' || access.editorRootId === null) throw readOnlyShare();
    return { ownerId, editorRootId: access.editorRootId };
  }

  /**
   * Where a writer may put something taken from `source`: for their own item, a parent of
   * theirs (null the root), as always; for an editor, a folder under the same editor root
   * of the same owner. Anywhere else is not theirs to write: 404, as for any folder
   * they cannot reach.
   */
  async function writableDestination(userId: string, source: WritableFolder, parentId: string | null): Promise<string | null> {
    if (source.editorRootId === null) return requireParent(userId, parentId);
    if (parentId === null) throw folderNotFound();
    const destination = await writableFolder(userId, parentId).catch((error: unknown) => {
      if (error instanceof AppError && error.status === 403) throw folderNotFound();
      throw error;
    });
    if (destination.ownerId !== source.ownerId || destination.editorRootId !== source.editorRootId) throw folderNotFound();
    return parentId;
  }

  /** The caller's own folder, or one they edit below (never at) the folder shared with them. */
  async function changeableFolder(userId: string, id: string): Promise<FolderRow & WritableFolder> {
    const own = await folders.findLive(userId, id);
    if (own) return { ...own, ownerId: userId, editorRootId: null };
    const writable = await writableFolder(userId, id);
    if (writable.editorRootId === id) throw shareRootLocked();
    const folder = await folders.findLive(writable.ownerId, id);
    if (!folder) throw folderNotFound();
    return { ...folder, ...writable };
  }

  /** A rename and a move in the activity of the folder the item is in (items at the owner's top level have none). */
  async function recordMove(
    change: { ownerId: string; actorId: string; kind: 'file' | 'folder'; before: { name: string; folderId: string | null } },
    after: { name: string; folderId: string | null },
  ): Promise<void> {
    const entry = { ownerId: change.ownerId, actor: { id: change.actorId }, kind: change.kind, name: after.name };
    if (after.folderId !== null && after.name !== change.before.name)
      await recordFolderActivity({ ...entry, folderId: after.folderId, action: 'renamed', details: { from: change.before.name } });
    if (after.folderId !== null && after.folderId !== change.before.folderId)
      await recordFolderActivity({
        ...entry,
        folderId: after.folderId,
        action: 'moved',
        details: change.before.folderId === null ? {} : { fromFolderId: change.before.folderId },
      });
  }

  return {
    /** The owner's live folder, or undefined: lookups for other modules (shares, archives), which answer their own 404s. */
    findLive: folders.findLive,
    /** An owner's live sub-folders, as rows. */
    listLive: folders.listLive,
    /** A folder and its ancestors, top first. */
    pathTo: folders.pathTo,
    requireFolder,
    requireParent,
    readableFolder,
    writableFolder,
    writableDestination,
    changeableFolder,
    recordMove,

    /**
     * The folders in a parent as docs/api.md#folders lists them, read from the database a page at a time
     * as the answer is written (lib/json-stream.ts). An unreadable parent is a 404 here,
     * before anything is written.
     */
    async list(userId: string, parentId: string | null): Promise<AsyncIterable<Folder>> {
      const ownerId = parentId === null ? userId : (await readableFolder(userId, parentId)).ownerId;
      return inPages(
        LIST_PAGE,
        (after, limit) => folders.listLivePage(ownerId, parentId, after && after.name, limit, userId),
        presentFolder,
      );
    },

    /**
     * The folders in a parent in the page's order: one page and the cursor of the next (null
     * after the last), or, without a limit, all of them read a page at a time as the answer
     * is written. Folders have no size or type: those sorts order them by name.
     */
    async listSorted(
      userId: string,
      parentId: string | null,
      page: ListingPage,
    ): Promise<{ folders: AsyncIterable<Folder> } | { folders: Folder[]; nextCursor: string | null }> {
      if (page.after !== null && !fitsPosition('folders', page.sort, page.after)) throw invalidListingCursor();
      const ownerId = parentId === null ? userId : (await readableFolder(userId, parentId)).ownerId;
      const read = (after: FolderRow | null, limit: number) =>
        folders.listLiveSortedPage(ownerId, parentId, page, after ? positionOf('folders', page.sort, after) : page.after, limit, userId);
      if (page.limit === null) return { folders: inPages(LIST_PAGE, read, presentFolder) };
      // One row past the page tells whether another page follows.
      const rows = await read(null, page.limit + 1);
      const shown = rows.slice(0, page.limit);
      const last = shown.at(-1);
      const nextCursor =
        rows.length > page.limit && last ? encodeListingCursor('folders', page, positionOf('folders', page.sort, last)) : null;
      return { folders: shown.map(presentFolder), nextCursor };
    },

    /** A new folder in the caller's drive, or (an editor) in a folder shared with them: then it is the owner's. */
    async create(userId: string, input: CreateFolderBody): Promise<Folder> {
      const name = requireItemName(input.name, 'folder');
      const parentId = input.parentId ?? null;
      const { ownerId } = parentId === null ? { ownerId: userId } : await writableFolder(userId, parentId);
      const now = clock.now().toISOString();
      const row = {
        id: newId(),
        user_id: ownerId,
        parent_id: parentId,
        name,
        created_at: now,
        updated_at: now,
        deleted_at: null,
        trashed_root: 0,
      };
      if (!(await folders.insert(row))) throw conflict(`A folder named "${name}" already exists here`, 'NAME_TAKEN');
      if (parentId !== null)
        await recordFolderActivity({ ownerId, folderId: parentId, actor: { id: userId }, action: 'created', kind: 'folder', name });
      return presentFolder(row);
    },

    async path(userId: string, id: string): Promise<Folder[]> {
      const { sharedPath } = await readableFolder(userId, id);
      // A shared folder is the top of its reader's path: no folder above it is revealed.
      if (sharedPath) return sharedPath.map((folder, index) => presentFolder(index === 0 ? { ...folder, parent_id: null } : folder));
      return (await folders.pathTo(userId, id)).map(presentFolder);
    },

    /**
     * Renames or moves the caller's folder, or (an editor) one inside a folder shared with
     * them, within it: the owner's folder stays the owner's.
     */
    async update(userId: string, id: string, input: UpdateFolderBody): Promise<Folder> {
      const folder = await changeableFolder(userId, id);
      const { ownerId } = folder;
      const name = input.name === undefined ? folder.name : requireItemName(input.name, 'folder');
      let parentId = folder.parent_id;
      if (input.parentId !== undefined) parentId = await writableDestination(userId, folder, input.parentId);
      const updatedAt = clock.now().toISOString();
      let placed = name;
      const move = async (candidate: string) => {
        const outcome = await folders.update(ownerId, id, { name: candidate, parent_id: parentId, updated_at: updatedAt });
        if (outcome === 'parent-gone') throw folderNotFound();
        if (outcome === 'into-itself') throw conflict('A folder cannot be moved into itself or one of its sub-folders', 'MOVE_INTO_ITSELF');
        return outcome === 'updated';
      };
      // `keep-both` takes the next free "name (n)" (docs/decisions/0050-name-clashes.md); a folder is never replaced.
      if (input.conflict === 'keep-both') placed = await firstFreeName(name, move);
      else if (!(await move(name))) throw conflict(`A folder named "${name}" already exists there`, 'NAME_TAKEN');
      if (placed !== folder.name) await activity.record(userId, 'rename', { item: 'folder', from: folder.name, name: placed });
      if (parentId !== folder.parent_id) await activity.record(userId, 'move', { item: 'folder', name: placed });
      await recordMove(
        { ownerId, actorId: userId, kind: 'folder', before: { name: folder.name, folderId: folder.parent_id } },
        {
          name: placed,
          folderId: parentId,
        },
      );
      const { ownerId: _owner, editorRootId: _root, ...row } = folder;
      return presentFolder({ ...row, name: placed, parent_id: parentId, updated_at: updatedAt });
    },
  };
}

export type FoldersService = ReturnType<typeof createFoldersService>;
