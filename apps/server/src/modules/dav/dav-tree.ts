import { createHash } from 'node:crypto';
import type { SharedFile, SharedFolder } from '@cloudvault/contract/shares';
import { nameKey } from '@cloudvault/contract/validation';
import { AppError, conflict, forbidden } from '../../lib/errors.ts';
import type { FilesService } from '../files/files.service.ts';
import { type FoldersService, readOnlyShare, shareRootLocked } from '../folders/folders.service.ts';
import type { DavPath } from './dav-paths.ts';
import type { DavFileRow, DavFolderRow, DavRepository } from './dav.repository.ts';
import { isOwnSharedWithMe, isSharedWithMe, nameSharedItems, type NamedSharedItem, SHARED_WITH_ME, type SharedItem } from './dav-shared.ts';

/**
 * Someone else's tree reached through /dav/Shared with me/<name>/ (docs/decisions/0061-share-roles.md):
 * whose it is, and the caller's role at the shared item, read from the database for this request.
 */
export interface DavShare {
  ownerId: string;
  role: 'viewer' | 'editor';
}

/**
 * A resource under /dav/: My Files itself (with its account's change head), the collection
 * of what others share with the caller (`shared`, with its ETag), a folder, or a file; a
 * folder or file of someone else's carries the share it is reached through.
 */
export type DavResource =
  | { kind: 'root'; path: DavPath; changeHead: number }
  | { kind: 'shared'; path: DavPath; etag: string }
  | { kind: 'folder'; path: DavPath; folder: DavFolderRow; share?: DavShare }
  | { kind: 'file'; path: DavPath; file: DavFileRow; share?: DavShare };

/**
 * What a path names: the resource, or where it would be created (parentId undefined: the
 * parent does not exist). `share`: the tree is someone else's, or (`virtual`) the path is
 * Shared with me itself or a name directly in it, where nothing can be written.
 */
export interface Located {
  path: DavPath;
  resource: DavResource | undefined;
  parentId: string | null | undefined;
  name: string;
  share?: DavShare | 'virtual';
}

/**
 * Whose tree a write changes, and the editor's root it must stay under (null: the caller's
 * own tree). `uploaderId`: whom an upload is made as, the caller, except for new content of a
 * file shared with them alone as an editor, which is its owner's upload (the upload path
 * knows folders shared with editors, not files).
 */
export interface Writer {
  ownerId: string;
  editorRootId: string | null;
  uploaderId?: string;
}

/** 128 bits of a SHA-256 of these parts, quoted: as short as a file's ETag. */
export const shortTag = (...parts: string[]) => `"${createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 32)}"`;

export const parentMissing = () => conflict('The parent collection does not exist', 'DAV_PARENT_MISSING');

/** A write onto Shared with me itself or directly into it: it only lists what others share. */
export const sharedWithMeReadOnly = () =>
  forbidden('Shared with me lists what others share with you: change things inside a folder shared with you as an editor', 'DAV_FORBIDDEN');

export interface DavTreeDeps {
  dav: Pick<DavRepository, 'folderNamed' | 'fileNamed' | 'folderById' | 'fileById' | 'changeHead'>;
  folders: Pick<FoldersService, 'readableFolder' | 'writableFolder'>;
  files: Pick<FilesService, 'readableFile'>;
  /** The folders and files shared privately with the caller, as GET /api/shared-with-me lists them. */
  sharedWithMe: {
    sharedWithMe(userId: string): Promise<Array<Pick<SharedFolder, 'id' | 'name' | 'shareId' | 'owner'>>>;
    filesSharedWithMe(userId: string): Promise<Array<Pick<SharedFile, 'id' | 'originalName' | 'shareId' | 'owner'>>>;
  };
}

/**
 * Paths under /dav/ as trees of names (docs/decisions/0027-webdav.md): My Files, and Shared
 * with me, where each item shared with the caller leads into its owner's tree with the
 * caller's role. Every answer reads the shares from the database: nothing of a share's
 * access is kept between requests, so a change or a revocation holds at once on every node.
 */
export function createDavTree(deps: DavTreeDeps) {
  const { dav, folders, files } = deps;

  /** The caller's own top-level item named like Shared with me, if any: served at OWN_SHARED_WITH_ME. */
  async function ownSharedWithMe(userId: string): Promise<{ folder?: DavFolderRow; file?: DavFileRow } | undefined> {
    const folder = await dav.folderNamed(userId, null, SHARED_WITH_ME);
    if (folder) return { folder };
    const file = await dav.fileNamed(userId, null, SHARED_WITH_ME);
    return file ? { file } : undefined;
  }

  /** The names a path walks through in the caller's own tree: OWN_SHARED_WITH_ME stands for their own "Shared with me". */
  async function ownNames(userId: string, path: DavPath): Promise<DavPath> {
    if (!isOwnSharedWithMe(path[0]) || !(await ownSharedWithMe(userId))) return path;
    return [SHARED_WITH_ME, ...path.slice(1)];
  }

  /**
   * Walks `path` from its segment `from` down from the folder `parentId` of `ownerId`'s tree
   * (names compared by key, so `names` may differ from the path in case or alias only).
   */
  async function walk(
    ownerId: string,
    path: DavPath,
    names: DavPath,
    from: number,
    start: string | null,
    share?: DavShare,
  ): Promise<Located> {
    let parentId = start;
    const name = path.at(-1) as string;
    for (const segment of names.slice(from, -1)) {
      const folder = await dav.folderNamed(ownerId, parentId, segment);
      if (!folder) return { path, resource: undefined, parentId: undefined, name, share };
      parentId = folder.id;
    }
    const last = names.at(-1) as string;
    const folder = await dav.folderNamed(ownerId, parentId, last);
    if (folder) return { path, resource: { kind: 'folder', path, folder, share }, parentId, name, share };
    const file = await dav.fileNamed(ownerId, parentId, last);
    return { path, resource: file ? { kind: 'file', path, file, share } : undefined, parentId, name, share };
  }

  /** The shared items under their names in Shared with me, from the database on every request: a revoked share is gone at once. */
  const sharedItems = async (userId: string) => {
    const [sharedFolders, sharedFiles] = await Promise.all([
      deps.sharedWithMe.sharedWithMe(userId),
      deps.sharedWithMe.filesSharedWithMe(userId),
    ]);
    return nameSharedItems([
      ...sharedFolders.map(({ id, name, shareId, owner }): SharedItem => ({ kind: 'folder', id, name, shareId, owner })),
      ...sharedFiles.map(({ id, originalName, shareId, owner }): SharedItem => ({ kind: 'file', id, name: originalName, shareId, owner })),
    ]);
  };

  /** The collection Shared with me: its ETag moves with the caller's change feed (which carries their shares' changes) and its list. */
  async function sharedCollection(userId: string, path: DavPath, items: NamedSharedItem[]): Promise<DavResource> {
    const list = items.map((item) => `${item.shareId}/${item.id}/${item.davName}`).join('\0');
    return { kind: 'shared', path, etag: shortTag('shared', String(await dav.changeHead(userId)), list) };
  }

  /**
   * A shared item as a resource at `path` (Shared with me/<name>), with whose it is and the
   * caller's role read now; undefined if it stopped being readable since it was listed.
   */
  async function sharedResource(userId: string, item: NamedSharedItem, path: DavPath): Promise<DavResource | undefined> {
    const unreadable = (error: unknown) => {
      if (error instanceof AppError && error.status === 404) return undefined;
      throw error;
    };
    if (item.kind === 'folder') {
      const readable = await folders.readableFolder(userId, item.id).catch(unreadable);
      if (!readable?.access) return undefined;
      const folder = await dav.folderById(readable.ownerId, item.id);
      return folder && { kind: 'folder', path, folder, share: { ownerId: readable.ownerId, role: readable.access.role } };
    }
    const readable = await files.readableFile(userId, item.id).catch(unreadable);
    if (!readable || readable.role === 'owner') return undefined;
    const file = await dav.fileById(readable.ownerId, item.id);
    return file && { kind: 'file', path, file, share: { ownerId: readable.ownerId, role: readable.role } };
  }

  /** A path under Shared with me: the collection, a shared item, or a path inside a shared folder of its owner's tree. */
  async function locateShared(userId: string, path: DavPath): Promise<Located> {
    const name = path.at(-1) as string;
    const items = await sharedItems(userId);
    if (path.length === 1)
      return { path, resource: await sharedCollection(userId, path, items), parentId: undefined, name, share: 'virtual' };
    const item = items.find((candidate) => nameKey(candidate.davName) === nameKey(path[1] as string));
    const top = item && (await sharedResource(userId, item, path.slice(0, 2)));
    if (!top || top.kind === 'root' || top.kind === 'shared' || !top.share)
      return { path, resource: undefined, parentId: undefined, name, share: 'virtual' };
    if (path.length === 2) {
      const parentId = top.kind === 'folder' ? top.folder.parent_id : top.file.folder_id;
      // A shared file replaced by an editor keeps its own name, whatever it is called here.
      return { path, resource: top, parentId, name: top.kind === 'file' ? top.file.name : name, share: top.share };
    }
    if (top.kind === 'file') return { path, resource: undefined, parentId: undefined, name, share: top.share };
    return walk(top.share.ownerId, path, path, 2, top.folder.id, top.share);
  }

  async function locate(userId: string, path: DavPath): Promise<Located> {
    if (path.length === 0)
      return { path, resource: { kind: 'root', path, changeHead: await dav.changeHead(userId) }, parentId: null, name: '' };
    if (isSharedWithMe(path[0])) return locateShared(userId, path);
    return walk(userId, path, await ownNames(userId, path), 0, null);
  }

  /**
   * Who may write what goes into a place (PUT, MKCOL, a COPY's or MOVE's destination): the
   * caller in their own tree; in someone else's, an editor of the folder it goes into
   * (READ_ONLY_SHARE for a viewer; 404 once it is no longer shared with them), or an editor
   * of a file shared on its own replacing its content. Read from the database on each write.
   */
  async function writerInto(userId: string, place: Located): Promise<Writer> {
    if (!place.share) return { ownerId: userId, editorRootId: null };
    if (place.share === 'virtual') throw sharedWithMeReadOnly();
    if (place.path.length === 2) {
      if (place.share.role !== 'editor') throw readOnlyShare();
      if (place.resource?.kind === 'file')
        return { ownerId: place.share.ownerId, editorRootId: place.resource.file.id, uploaderId: place.share.ownerId };
      throw shareRootLocked();
    }
    if (place.parentId === undefined || place.parentId === null) throw parentMissing();
    return folders.writableFolder(userId, place.parentId);
  }

  /** Who may change an item itself (DELETE, a MOVE's source, PROPPATCH): as writerInto its folder; never a shared item itself. */
  async function writerOf(userId: string, resource: DavResource): Promise<Writer> {
    if (resource.kind === 'root') return { ownerId: userId, editorRootId: null };
    if (resource.kind === 'shared') throw sharedWithMeReadOnly();
    if (!resource.share) return { ownerId: userId, editorRootId: null };
    if (resource.path.length === 2) throw resource.share.role !== 'editor' ? readOnlyShare() : shareRootLocked(resource.kind);
    // Below a shared item, so never at the top of its owner's tree: it has a folder.
    return folders.writableFolder(userId, (resource.kind === 'folder' ? resource.folder.parent_id : resource.file.folder_id) as string);
  }

  return { locate, sharedItems, sharedCollection, sharedResource, writerInto, writerOf };
}
