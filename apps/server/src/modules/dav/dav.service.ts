import { PassThrough, type Readable } from 'node:stream';
import { cleanItemName } from '@cloudvault/contract/validation';
import type { BlobStore } from '../../adapters/blob-store/blob-store.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatBytes } from '@cloudvault/contract/format';
import { AppError, badRequest, conflict } from '../../lib/errors.ts';
import type { FilesService } from '../files/files.service.ts';
import type { StorageService } from '../files/storage.service.ts';
import { type CutOffBody, tooLarge, type UploadsService } from '../files/uploads.service.ts';
import { type FoldersService, readOnlyShare } from '../folders/folders.service.ts';
import type { TrashService } from '../trash/trash.service.ts';
import { type DavPath, pathKey } from './dav-paths.ts';
import type { DavLocksService } from './dav-locks.service.ts';
import type { DavFileRow, DavFolderRow, DavRepository, DeadProperty } from './dav.repository.ts';
import {
  MAX_PROPERTIES_PER_ACCOUNT,
  MAX_PROPERTIES_PER_RESOURCE,
  MAX_PROPERTY_NAME_LENGTH,
  MAX_PROPERTY_NAMESPACE_LENGTH,
  MAX_PROPERTY_VALUE_BYTES,
} from './dav-limits.ts';
import type { DavPropertiesRepository } from './dav-properties.repository.ts';
import type { DavTreesRepository } from './dav-trees.repository.ts';
import { isSharedWithMe, OWN_SHARED_WITH_ME, SHARED_WITH_ME } from './dav-shared.ts';
import {
  createDavTree,
  type DavResource,
  type DavTreeDeps,
  type Located,
  parentMissing,
  sharedWithMeReadOnly,
  shortTag,
} from './dav-tree.ts';

export type { DavResource, DavShare, Located } from './dav-tree.ts';
import { DAV_NS } from './dav-xml.ts';

/** Who writes (`userId`: the services say what an editor may do, and record who did it) into whose tree. */
interface Actor {
  userId: string;
  ownerId: string;
}

/** Rows per query of a listing or a tree copy. */
const PAGE = 1000;

const methodNotAllowed = (message: string) => new AppError(405, 'DAV_METHOD_NOT_ALLOWED', message);
const PROPERTY_BOUNDS = { perResource: MAX_PROPERTIES_PER_RESOURCE, perAccount: MAX_PROPERTIES_PER_ACCOUNT };
const propertiesFull = () =>
  new AppError(
    507,
    'DAV_PROPERTIES_FULL',
    `An account keeps at most ${MAX_PROPERTIES_PER_ACCOUNT} WebDAV properties: remove some before copying more`,
  );

/** A property name the database cannot hold is a bad request, whatever the method. */
function requireStorableName(property: { namespace: string; name: string }): void {
  if (property.namespace.length > MAX_PROPERTY_NAMESPACE_LENGTH || property.name.length > MAX_PROPERTY_NAME_LENGTH) {
    throw badRequest(
      `A property's namespace is at most ${MAX_PROPERTY_NAMESPACE_LENGTH} characters and its name at most ${MAX_PROPERTY_NAME_LENGTH}`,
      'DAV_PROPERTY_NAME_TOO_LONG',
    );
  }
}

/** The resource's id for dead properties ("/" for the root). */
export const resourceId = (resource: DavResource): string =>
  resource.kind === 'root'
    ? '/'
    : resource.kind === 'shared'
      ? SHARED_WITH_ME
      : resource.kind === 'file'
        ? resource.file.id
        : resource.folder.id;

/** The account a resource's rows belong to: its owner when reached through a share. */
const ownerOf = (userId: string, resource: DavResource) =>
  (resource.kind === 'folder' || resource.kind === 'file') && resource.share ? resource.share.ownerId : userId;

/**
 * A file's ETag: the first 128 bits of its content's SHA-256. Short, because clients build
 * If headers of two ETags and a lock token in fixed buffers (litmus's neon: 200 bytes).
 */
export const fileEtag = (file: { sha256: string }): string => `"${file.sha256.slice(0, 32)}"`;

/**
 * A folder's ETag: changes when anything below it changes, at any depth (the change journal
 * renews tree_tag on every folder above a changed item), and when the folder itself is
 * renamed or given another modification time; a sibling's change leaves it as it was. So a
 * client walks only the folders whose ETag changed.
 */
export const folderEtag = (folder: Pick<DavFolderRow, 'id' | 'name' | 'updated_at' | 'tree_tag'>): string =>
  shortTag(folder.id, folder.name, folder.updated_at, folder.tree_tag ?? '');

/** My Files' ETag: the account's change head, which every change in its tree moves on. */
export const rootEtag = (changeHead: number): string => shortTag('root', String(changeHead));

export function etagOf(resource: DavResource | undefined): string | undefined {
  if (resource === undefined) return undefined;
  if (resource.kind === 'file') return fileEtag(resource.file);
  if (resource.kind === 'shared') return resource.etag;
  return resource.kind === 'folder' ? folderEtag(resource.folder) : rootEtag(resource.changeHead);
}

/**
 * A name a client asks for, kept exactly: what the JSON API refuses is refused here too
 * (400), and so is a name it would store changed (trimmed, control characters removed),
 * since the client would not find it again under the name it sent.
 */
export function requireExactName(name: string): string {
  if (cleanItemName(name) !== name)
    throw badRequest(
      'A name is 1 to 255 characters, not "." or "..", without control characters, invisible characters, separators or spaces at its ends',
      'INVALID_NAME',
    );
  return name;
}

export interface DavServiceDeps {
  dav: DavRepository;
  properties: DavPropertiesRepository;
  trees: DavTreesRepository;
  locks: Pick<DavLocksService, 'released'>;
  folders: Pick<FoldersService, 'create' | 'update' | 'readableFolder' | 'writableFolder'>;
  files: Pick<FilesService, 'update' | 'readableFile'>;
  sharedWithMe: DavTreeDeps['sharedWithMe'];
  trash: Pick<TrashService, 'trashFile' | 'trashFolder' | 'purgeItem'>;
  uploads: Pick<UploadsService, 'receive'>;
  storage: Pick<StorageService, 'storageInfo'>;
  blobs: Pick<BlobStore, 'open'>;
  /** The user's plan: its name and per-file limit, to refuse a COPY before an overwritten destination goes to Trash. */
  planOf(userId: string): Promise<{ name: string; maxFileSize: number | null }>;
  clock: Clock;
}

/**
 * My Files as WebDAV sees it (docs/decisions/0027-webdav.md): paths of names resolved
 * against folders and files, and every change made through the services the web app uses,
 * so quota, plan limits, versioning and Trash apply alike.
 */
export function createDavService(deps: DavServiceDeps) {
  const { dav, folders, files, trash, uploads } = deps;

  const { locate, sharedItems, sharedCollection, sharedResource, writerInto, writerOf } = createDavTree(deps);

  const folderIdOf = (resource: DavResource) => (resource.kind === 'folder' ? resource.folder.id : null);

  /**
   * Moves the resource to its owner's Trash, as the web app's delete does (an editor's delete
   * goes to the owner's); the root and the shared items themselves cannot go.
   */
  async function toTrash(userId: string, resource: DavResource): Promise<void> {
    if (resource.kind === 'root') throw new AppError(403, 'DAV_FORBIDDEN', 'My Files itself cannot be deleted');
    if (resource.kind === 'shared') throw sharedWithMeReadOnly();
    await writerOf(userId, resource);
    // An editor's delete goes to the owner's Trash, saying who deleted it: the trash service's part.
    if (resource.kind === 'file') await trash.trashFile(userId, resource.file.id);
    else await trash.trashFolder(userId, resource.folder.id);
    await deps.locks.released(userId, resource.path);
  }

  /**
   * Stores `body` as the file `name` in the folder, replacing a file of that name (its id
   * kept): a raw upload of exactly `bytes` by `userId`, into the folder owner's drive.
   */
  function store(
    userId: string,
    folderId: string | null,
    name: string,
    input: { body: Readable; bytes: number | undefined; mimetype: string | undefined; beforeBody?: () => void; cutOff?: CutOffBody },
  ) {
    return uploads.receive({
      userId,
      // Known from the path before the body: the folder owner's plan and quota are checked before any byte.
      folderId,
      declaredBytes: input.bytes,
      framing: 'raw',
      replace: true,
      onAccepted: input.beforeBody,
      content: async () => ({ folderId, fileName: name, declaredMimetype: input.mimetype, body: input.body }),
      cutOff: input.cutOff,
    });
  }

  /**
   * Refuses a COPY into `userId`'s tree of `sourceOwner`'s resource that the plan or the property bounds would stop halfway (a file over the
   * per-file limit, more bytes than the storage left, more dead properties than the account
   * may keep), before an overwritten destination goes to Trash.
   */
  async function requireRoomForCopy(
    userId: string,
    sourceOwner: string,
    source: Extract<DavResource, { kind: 'folder' | 'file' }>,
    depthInfinity: boolean,
  ): Promise<void> {
    const { bytes, largest } =
      source.kind === 'file'
        ? { bytes: Number(source.file.size), largest: Number(source.file.size) }
        : depthInfinity
          ? await deps.trees.treeSize(sourceOwner, source.folder.id)
          : { bytes: 0, largest: 0 };
    const plan = await deps.planOf(userId);
    if (plan.maxFileSize !== null && largest > plan.maxFileSize) throw tooLarge(plan.name, plan.maxFileSize);
    const { storageUsed, storageLimit } = await deps.storage.storageInfo(userId);
    if (storageUsed + bytes > storageLimit) {
      throw new AppError(
        507,
        'QUOTA_EXCEEDED',
        `Not enough storage: ${formatBytes(Math.max(0, storageLimit - storageUsed))} free, and this copy needs ${formatBytes(bytes)}.`,
      );
    }
    const properties = await deps.trees.propertyCounts(userId, resourceId(source), source.kind === 'folder' && depthInfinity);
    if (properties.held + properties.copied > MAX_PROPERTIES_PER_ACCOUNT) throw propertiesFull();
  }

  /** A copy of the file's bytes, through the upload path: quota, plan limits and hashing apply. */
  async function copyFile({ userId, ownerId }: Actor, file: DavFileRow, folderId: string | null, name: string): Promise<string> {
    const size = Number(file.size);
    const source = await deps.blobs.open(file.blob_key, size > 0 ? { start: 0, end: size - 1 } : undefined);
    const body = new PassThrough();
    try {
      void source.writeTo(body).then(
        () => body.end(),
        (error: Error) => body.destroy(error),
      );
      const copy = await store(userId, folderId, name, { body, bytes: size, mimetype: file.mimetype });
      if ((await deps.properties.copyProperties(ownerId, file.id, { id: copy.id, kind: 'file' }, PROPERTY_BOUNDS)) !== 'stored') {
        await trash.trashFile(userId, copy.id);
        await trash.purgeItem(ownerId, 'file', copy.id);
        throw propertiesFull();
      }
      return copy.id;
    } finally {
      body.destroy();
      await source.close();
    }
  }

  /** Copies a folder's dead properties onto its copy; a caller undoes the copy when the account has no room for them. */
  async function copyFolderProperties(userId: string, fromId: string, toId: string): Promise<void> {
    if ((await deps.properties.copyProperties(userId, fromId, { id: toId, kind: 'folder' }, PROPERTY_BOUNDS)) !== 'stored')
      throw propertiesFull();
  }

  /**
   * Copies a folder's members (depth infinity) of `sourceOwner`'s tree into the actor's
   * folder, a page at a time. Dead properties are copied within one account only: another's stay theirs.
   */
  async function copyMembers(actor: Actor, sourceOwner: string, fromId: string, toId: string): Promise<void> {
    for (let after: string | null = null; ;) {
      const page = await dav.foldersPage(sourceOwner, fromId, after, PAGE);
      for (const folder of page) {
        const created = await folders.create(actor.userId, { name: folder.name, parentId: toId });
        await copyFolderProperties(actor.ownerId, folder.id, created.id);
        await copyMembers(actor, sourceOwner, folder.id, created.id);
      }
      if (page.length < PAGE) break;
      after = page.at(-1)?.name ?? null;
    }
    for (let after: string | null = null; ;) {
      const page = await dav.filesPage(sourceOwner, fromId, after, PAGE);
      for (const file of page) await copyFile(actor, file, toId, file.name);
      if (page.length < PAGE) break;
      after = page.at(-1)?.name ?? null;
    }
  }

  return {
    locate,

    /**
     * The collection's members, folders then files, each by name, read a page at a time as
     * they are written; My Files lists Shared with me first (when anything is shared with the
     * caller), and Shared with me the items shared with them.
     */
    async *members(userId: string, collection: DavResource): AsyncGenerator<DavResource> {
      if (collection.kind === 'shared') {
        for (const item of await sharedItems(userId)) {
          const resource = await sharedResource(userId, item, [...collection.path, item.davName]);
          if (resource) yield resource;
        }
        return;
      }
      const ownerId = ownerOf(userId, collection);
      const share = collection.kind === 'folder' ? collection.share : undefined;
      const parentId = folderIdOf(collection);
      // The caller's own "Shared with me" is listed under its alias, where the collection of shares does not hide it.
      const nameOf = (name: string) => (collection.kind === 'root' && isSharedWithMe(name) ? OWN_SHARED_WITH_ME : name);
      // Listed once something is shared with the caller, so a client syncing My Files meets it only then; reachable always.
      const shared = collection.kind === 'root' ? await sharedItems(userId) : [];
      if (shared.length > 0) yield await sharedCollection(userId, [SHARED_WITH_ME], shared);
      for (let after: string | null = null; ;) {
        const page = await dav.foldersPage(ownerId, parentId, after, PAGE);
        for (const folder of page) yield { kind: 'folder', path: [...collection.path, nameOf(folder.name)], folder, share };
        if (page.length < PAGE) break;
        after = page.at(-1)?.name ?? null;
      }
      for (let after: string | null = null; ;) {
        const page = await dav.filesPage(ownerId, parentId, after, PAGE);
        for (const file of page) yield { kind: 'file', path: [...collection.path, nameOf(file.name)], file, share };
        if (page.length < PAGE) break;
        after = page.at(-1)?.name ?? null;
      }
    },

    /**
     * RFC 4331's figures: what the files use and what is left of the plan's storage: the
     * caller's own, or in a folder they edit its owner's, where their uploads count; none in
     * Shared with me itself nor where they may only look.
     */
    async quota(userId: string, resource: DavResource): Promise<{ used: number; available: number } | undefined> {
      if (resource.kind === 'shared' || ((resource.kind === 'folder' || resource.kind === 'file') && resource.share?.role === 'viewer'))
        return undefined;
      const info = await deps.storage.storageInfo(ownerOf(userId, resource));
      return { used: info.storageUsed, available: Math.max(0, info.storageLimit - info.storageUsed) };
    },

    /** The dead properties of these resources (of one collection: one owner), by resource id. */
    deadProperties: (userId: string, resources: readonly DavResource[]) =>
      dav.properties(resources[0] ? ownerOf(userId, resources[0]) : userId, resources.map(resourceId)),

    /** The UTF-8 bytes of the dead properties a PROPFIND of the resource shows, its members' too when it lists them. */
    deadPropertyBytes: async (userId: string, resource: DavResource, withMembers: boolean) =>
      resource.kind === 'shared'
        ? 0
        : deps.properties.listingBytes(ownerOf(userId, resource), resourceId(resource), withMembers ? folderIdOf(resource) : undefined),

    /** How many members a depth-1 listing of the collection shows. */
    memberCount: async (userId: string, collection: DavResource) => {
      if (collection.kind === 'shared') return (await sharedItems(userId)).length;
      const count = await deps.trees.memberCount(ownerOf(userId, collection), folderIdOf(collection));
      return collection.kind === 'root' && (await sharedItems(userId)).length > 0 ? count + 1 : count;
    },

    /** Refuses a LOCK where the caller may not write: Shared with me itself, and what they may only look at (403). */
    async requireLockable(userId: string, located: Located): Promise<void> {
      if (located.share === 'virtual') throw sharedWithMeReadOnly();
      if (!located.share || !located.resource) return;
      if (located.path.length === 2) {
        if (located.share.role !== 'editor') throw readOnlyShare();
        return;
      }
      const { resource } = located;
      if (resource.kind === 'folder') await folders.writableFolder(userId, resource.folder.id);
      else if (resource.kind === 'file') await writerOf(userId, resource);
    },

    async mkcol(userId: string, path: DavPath): Promise<void> {
      const located = await locate(userId, path);
      if (located.resource && !located.share) throw methodNotAllowed('Something already exists at this path');
      await writerInto(userId, located);
      if (located.resource) throw methodNotAllowed('Something already exists at this path');
      if (located.parentId === undefined) throw parentMissing();
      try {
        await folders.create(userId, { name: requireExactName(located.name), parentId: located.parentId });
      } catch (error) {
        if (error instanceof AppError && error.code === 'NAME_TAKEN') throw methodNotAllowed('Something already exists at this path');
        throw error;
      }
    },

    /**
     * PUT: stores the body as the file at the path; answers whether it was created (else its
     * content was replaced). `bytes` undefined: a body of unknown length, stored up to what the plan allows.
     */
    async put(
      userId: string,
      located: Located,
      input: {
        body: Readable;
        bytes: number | undefined;
        mimetype: string | undefined;
        modifiedAt: string | undefined;
        beforeBody: () => void;
        cutOff?: CutOffBody;
      },
    ): Promise<{ created: boolean; etag: string }> {
      const { ownerId, uploaderId = userId } = await writerInto(userId, located);
      if (located.resource && located.resource.kind !== 'file') throw methodNotAllowed('A collection has no content to replace');
      if (located.parentId === undefined) throw parentMissing();
      // In a folder shared with the caller as an editor, the file is its owner's: their quota and plan.
      const file = await store(uploaderId, located.parentId, requireExactName(located.name), input);
      if (input.modifiedAt) await dav.setModified(ownerId, 'file', file.id, input.modifiedAt, deps.clock.now().toISOString());
      const stored = await dav.fileNamed(ownerId, located.parentId, located.name);
      return { created: !located.resource, etag: stored ? fileEtag(stored) : '""' };
    },

    toTrash,

    /**
     * COPY and MOVE (RFC 4918, sections 9.8 and 9.9): an existing destination is moved to
     * Trash when Overwrite allows (412 otherwise), once nothing is left that would refuse the
     * copy or move; answers whether the destination is new.
     */
    async transfer(
      userId: string,
      method: 'COPY' | 'MOVE',
      source: DavResource,
      destination: Located & { path: DavPath },
      options: { overwrite: boolean; depthInfinity: boolean },
    ): Promise<{ created: boolean }> {
      if (source.kind === 'root') throw new AppError(403, 'DAV_FORBIDDEN', 'My Files itself cannot be copied or moved');
      if (source.kind === 'shared') throw sharedWithMeReadOnly();
      const sourceKey = pathKey(source.path);
      const destinationKey = pathKey(destination.path);
      if (sourceKey === destinationKey) throw new AppError(403, 'DAV_SAME_RESOURCE', 'The source and the destination are the same');
      if (source.kind === 'folder' && destinationKey.startsWith(`${sourceKey}/`)) {
        throw conflict('A folder cannot be copied or moved into itself or one of its sub-folders', 'MOVE_INTO_ITSELF');
      }
      // A MOVE changes the source's place as well; a COPY only reads it (a viewer may copy out into their own files).
      const from = method === 'MOVE' ? await writerOf(userId, source) : undefined;
      const to = await writerInto(userId, destination);
      if (from && (from.ownerId !== to.ownerId || from.editorRootId !== to.editorRootId)) {
        // RFC 4918 section 9.9.4: the destination's namespace does not take the resource; a client may copy, then delete.
        throw new AppError(
          502,
          'DAV_MOVE_ACROSS_SHARES',
          'A move cannot cross between your files and a shared folder, nor between two shares: copy it, then delete the original',
        );
      }
      if (destination.parentId === undefined) throw parentMissing();
      const name = requireExactName(destination.name);
      const existed = destination.resource !== undefined;
      if (destination.resource) {
        if (!options.overwrite) throw new AppError(412, 'DAV_DESTINATION_EXISTS', 'The destination exists and Overwrite is F');
        // Every refusal comes before the destination goes to Trash, which a failed COPY or MOVE must leave in place.
        if (sourceKey.startsWith(`${destinationKey}/`))
          throw conflict('The destination holds the source, so it cannot be replaced by it', 'DAV_DESTINATION_HOLDS_SOURCE');
        if (method === 'COPY') await requireRoomForCopy(to.ownerId, ownerOf(userId, source), source, options.depthInfinity);
        await toTrash(userId, destination.resource);
      }
      const parentId = destination.parentId;
      // Whatever lands in a shared folder is its owner's: their quota, plan and change feed.
      const { ownerId } = to;
      const actor = { userId, ownerId };
      if (method === 'MOVE') {
        if (source.kind === 'file') {
          await files.update(userId, source.file.id, { name, folderId: parentId });
          await dav.keepModified(ownerId, 'file', source.file.id, source.file.updated_at, deps.clock.now().toISOString());
        } else {
          await folders.update(userId, source.folder.id, { name, parentId });
          await dav.keepModified(ownerId, 'folder', source.folder.id, source.folder.updated_at, deps.clock.now().toISOString());
        }
        await deps.locks.released(userId, source.path);
        return { created: !existed };
      }
      if (source.kind === 'file') {
        await copyFile(actor, source.file, parentId, name);
        return { created: !existed };
      }
      const created = await folders.create(userId, { name, parentId });
      try {
        await copyFolderProperties(ownerId, source.folder.id, created.id);
        if (options.depthInfinity) await copyMembers(actor, ownerOf(userId, source), source.folder.id, created.id);
      } catch (error) {
        // A copy that cannot finish (quota, plan limits) leaves nothing half-copied behind.
        await trash.trashFolder(userId, created.id);
        await trash.purgeItem(ownerId, 'folder', created.id);
        throw error;
      }
      return { created: !existed };
    },

    /**
     * PROPPATCH (RFC 4918, section 9.2), all or nothing: dead properties are kept; of the
     * live ones only the modification time may be set (getlastmodified as an HTTP date, or
     * ownCloud's lastmodified in Unix seconds, which rclone and Nextcloud clients send).
     * Answers each property's status: 507 for a value over its bound or a set the resource's
     * or the account's bound has no room for (section 9.2.1), the others then 424.
     */
    async proppatch(
      userId: string,
      resource: DavResource,
      changes: ReadonlyArray<{ set: DeadProperty } | { remove: { namespace: string; name: string } }>,
    ): Promise<Array<{ namespace: string; name: string; status: number }>> {
      for (const change of changes) requireStorableName('set' in change ? change.set : change.remove);
      if (resource.kind === 'shared') throw sharedWithMeReadOnly();
      const { ownerId } = await writerOf(userId, resource);
      let modifiedAt: string | undefined;
      const outcomes = changes.map((change) => {
        const { namespace, name } = 'set' in change ? change.set : change.remove;
        if (namespace !== DAV_NS)
          return { namespace, name, status: 'set' in change && Buffer.byteLength(change.set.value) > MAX_PROPERTY_VALUE_BYTES ? 507 : 200 };
        if ('set' in change && resource.kind !== 'root' && (name === 'getlastmodified' || name === 'lastmodified')) {
          modifiedAt = parseModified(name, change.set.value);
          return { namespace, name, status: modifiedAt === undefined ? 409 : 200 };
        }
        return { namespace, name, status: 403 };
      });
      const failed = () => outcomes.map((outcome) => (outcome.status === 200 ? { ...outcome, status: 424 } : outcome));
      if (outcomes.some((outcome) => outcome.status !== 200)) return failed();
      const id = resourceId(resource);
      const dead = changes.filter((change) => ('set' in change ? change.set : change.remove).namespace !== DAV_NS);
      if ((await deps.properties.updateProperties(ownerId, { id, kind: resource.kind }, dead, PROPERTY_BOUNDS)) !== 'stored') {
        changes.forEach((change, index) => {
          if ('set' in change && change.set.namespace !== DAV_NS)
            outcomes[index] = { ...(outcomes[index] as (typeof outcomes)[number]), status: 507 };
        });
        return failed();
      }
      if (modifiedAt && resource.kind !== 'root')
        await dav.setModified(ownerId, resource.kind, id, modifiedAt, deps.clock.now().toISOString());
      return outcomes;
    },
  };
}

/** A modification time a client sets: an HTTP date, or Unix seconds; undefined when it is neither. */
export function parseModified(name: string, value: string): string | undefined {
  const text = value.trim();
  const time = name === 'lastmodified' && /^\d{1,12}$/.test(text) ? Number(text) * 1000 : Date.parse(text);
  return Number.isFinite(time) && time >= 0 ? new Date(time).toISOString() : undefined;
}

export type DavService = ReturnType<typeof createDavService>;
