import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { cleanItemName } from '@cloudvault/contract/validation';
import type { BlobStore } from '../../adapters/blob-store/blob-store.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatBytes } from '@cloudvault/contract/format';
import { AppError, badRequest, conflict } from '../../lib/errors.ts';
import type { FilesService } from '../files/files.service.ts';
import type { StorageService } from '../files/storage.service.ts';
import { type CutOffBody, tooLarge, type UploadsService } from '../files/uploads.service.ts';
import type { FoldersService } from '../folders/folders.service.ts';
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
import { DAV_NS } from './dav-xml.ts';

/** A resource under /dav/: My Files itself (with its account's change head), a folder, or a file. */
export type DavResource =
  | { kind: 'root'; path: DavPath; changeHead: number }
  | { kind: 'folder'; path: DavPath; folder: DavFolderRow }
  | { kind: 'file'; path: DavPath; file: DavFileRow };

/** What a path names: the resource, or where it would be created (parentId undefined: the parent does not exist). */
export interface Located {
  resource: DavResource | undefined;
  parentId: string | null | undefined;
  name: string;
}

/** Rows per query of a listing or a tree copy. */
const PAGE = 1000;

const methodNotAllowed = (message: string) => new AppError(405, 'DAV_METHOD_NOT_ALLOWED', message);
const parentMissing = () => conflict('The parent collection does not exist', 'DAV_PARENT_MISSING');
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
  resource.kind === 'root' ? '/' : resource.kind === 'file' ? resource.file.id : resource.folder.id;

/**
 * A file's ETag: the first 128 bits of its content's SHA-256. Short, because clients build
 * If headers of two ETags and a lock token in fixed buffers (litmus's neon: 200 bytes).
 */
export const fileEtag = (file: { sha256: string }): string => `"${file.sha256.slice(0, 32)}"`;

/** 128 bits of a SHA-256 of these parts, quoted: as short as a file's ETag. */
const shortTag = (...parts: string[]) => `"${createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 32)}"`;

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
  folders: Pick<FoldersService, 'create' | 'update'>;
  files: Pick<FilesService, 'update'>;
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

  async function locate(userId: string, path: DavPath): Promise<Located> {
    if (path.length === 0) return { resource: { kind: 'root', path, changeHead: await dav.changeHead(userId) }, parentId: null, name: '' };
    let parentId: string | null = null;
    for (const name of path.slice(0, -1)) {
      const folder = await dav.folderNamed(userId, parentId, name);
      if (!folder) return { resource: undefined, parentId: undefined, name: path.at(-1) as string };
      parentId = folder.id;
    }
    const name = path.at(-1) as string;
    const folder = await dav.folderNamed(userId, parentId, name);
    if (folder) return { resource: { kind: 'folder', path, folder }, parentId, name };
    const file = await dav.fileNamed(userId, parentId, name);
    return { resource: file ? { kind: 'file', path, file } : undefined, parentId, name };
  }

  const folderIdOf = (resource: DavResource) => (resource.kind === 'folder' ? resource.folder.id : null);

  /** Moves the resource to Trash, as the web app's delete does; the root cannot go. */
  async function toTrash(userId: string, resource: DavResource): Promise<void> {
    if (resource.kind === 'root') throw new AppError(403, 'DAV_FORBIDDEN', 'My Files itself cannot be deleted');
    if (resource.kind === 'file') await trash.trashFile(userId, resource.file.id);
    else await trash.trashFolder(userId, resource.folder.id);
    await deps.locks.released(userId, resource.path);
  }

  /** Stores `body` as the file `name` in the folder, replacing a file of that name (its id kept): a raw upload of exactly `bytes`. */
  function store(
    userId: string,
    folderId: string | null,
    name: string,
    input: { body: Readable; bytes: number | undefined; mimetype: string | undefined; beforeBody?: () => void; cutOff?: CutOffBody },
  ) {
    return uploads.receive({
      userId,
      declaredBytes: input.bytes,
      framing: 'raw',
      replace: true,
      onAccepted: input.beforeBody,
      content: async () => ({ folderId, fileName: name, declaredMimetype: input.mimetype, body: input.body }),
      cutOff: input.cutOff,
    });
  }

  /**
   * Refuses a COPY the plan or the property bounds would stop halfway (a file over the
   * per-file limit, more bytes than the storage left, more dead properties than the account
   * may keep), before an overwritten destination goes to Trash.
   */
  async function requireRoomForCopy(userId: string, source: Exclude<DavResource, { kind: 'root' }>, depthInfinity: boolean): Promise<void> {
    const { bytes, largest } =
      source.kind === 'file'
        ? { bytes: Number(source.file.size), largest: Number(source.file.size) }
        : depthInfinity
          ? await deps.trees.treeSize(userId, source.folder.id)
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
  async function copyFile(userId: string, file: DavFileRow, folderId: string | null, name: string): Promise<string> {
    const size = Number(file.size);
    const source = await deps.blobs.open(file.blob_key, size > 0 ? { start: 0, end: size - 1 } : undefined);
    const body = new PassThrough();
    try {
      void source.writeTo(body).then(
        () => body.end(),
        (error: Error) => body.destroy(error),
      );
      const copy = await store(userId, folderId, name, { body, bytes: size, mimetype: file.mimetype });
      if ((await deps.properties.copyProperties(userId, file.id, { id: copy.id, kind: 'file' }, PROPERTY_BOUNDS)) !== 'stored') {
        await trash.trashFile(userId, copy.id);
        await trash.purgeItem(userId, 'file', copy.id);
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

  /** Copies a folder's members (depth infinity) into another, a page at a time. */
  async function copyMembers(userId: string, fromId: string, toId: string): Promise<void> {
    for (let after: string | null = null; ;) {
      const page = await dav.foldersPage(userId, fromId, after, PAGE);
      for (const folder of page) {
        const created = await folders.create(userId, { name: folder.name, parentId: toId });
        await copyFolderProperties(userId, folder.id, created.id);
        await copyMembers(userId, folder.id, created.id);
      }
      if (page.length < PAGE) break;
      after = page.at(-1)?.name ?? null;
    }
    for (let after: string | null = null; ;) {
      const page = await dav.filesPage(userId, fromId, after, PAGE);
      for (const file of page) await copyFile(userId, file, toId, file.name);
      if (page.length < PAGE) break;
      after = page.at(-1)?.name ?? null;
    }
  }

  return {
    locate,

    /** The collection's members, folders then files, each by name, read a page at a time as they are written. */
    async *members(userId: string, collection: DavResource): AsyncGenerator<DavResource> {
      const parentId = folderIdOf(collection);
      for (let after: string | null = null; ;) {
        const page = await dav.foldersPage(userId, parentId, after, PAGE);
        for (const folder of page) yield { kind: 'folder', path: [...collection.path, folder.name], folder };
        if (page.length < PAGE) break;
        after = page.at(-1)?.name ?? null;
      }
      for (let after: string | null = null; ;) {
        const page = await dav.filesPage(userId, parentId, after, PAGE);
        for (const file of page) yield { kind: 'file', path: [...collection.path, file.name], file };
        if (page.length < PAGE) break;
        after = page.at(-1)?.name ?? null;
      }
    },

    /** RFC 4331's figures: what the user's files use and what is left of the plan's storage. */
    async quota(userId: string): Promise<{ used: number; available: number }> {
      const info = await deps.storage.storageInfo(userId);
      return { used: info.storageUsed, available: Math.max(0, info.storageLimit - info.storageUsed) };
    },

    deadProperties: (userId: string, ids: readonly string[]) => dav.properties(userId, ids),

    /** The UTF-8 bytes of the dead properties a PROPFIND of the resource shows, its members' too when it lists them. */
    deadPropertyBytes: (userId: string, resource: DavResource, withMembers: boolean) =>
      deps.properties.listingBytes(userId, resourceId(resource), withMembers ? folderIdOf(resource) : undefined),

    /** How many members a depth-1 listing of the collection shows. */
    memberCount: (userId: string, collection: DavResource) => deps.trees.memberCount(userId, folderIdOf(collection)),

    async mkcol(userId: string, path: DavPath): Promise<void> {
      const located = await locate(userId, path);
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
      if (located.resource && located.resource.kind !== 'file') throw methodNotAllowed('A collection has no content to replace');
      if (located.parentId === undefined) throw parentMissing();
      const file = await store(userId, located.parentId, requireExactName(located.name), input);
      if (input.modifiedAt) await dav.setModified(userId, 'file', file.id, input.modifiedAt, deps.clock.now().toISOString());
      const stored = await dav.fileNamed(userId, located.parentId, located.name);
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
      const sourceKey = pathKey(source.path);
      const destinationKey = pathKey(destination.path);
      if (sourceKey === destinationKey) throw new AppError(403, 'DAV_SAME_RESOURCE', 'The source and the destination are the same');
      if (source.kind === 'folder' && destinationKey.startsWith(`${sourceKey}/`)) {
        throw conflict('A folder cannot be copied or moved into itself or one of its sub-folders', 'MOVE_INTO_ITSELF');
      }
      if (destination.parentId === undefined) throw parentMissing();
      const name = requireExactName(destination.name);
      const existed = destination.resource !== undefined;
      if (destination.resource) {
        if (!options.overwrite) throw new AppError(412, 'DAV_DESTINATION_EXISTS', 'The destination exists and Overwrite is F');
        // Every refusal comes before the destination goes to Trash, which a failed COPY or MOVE must leave in place.
        if (sourceKey.startsWith(`${destinationKey}/`))
          throw conflict('The destination holds the source, so it cannot be replaced by it', 'DAV_DESTINATION_HOLDS_SOURCE');
        if (method === 'COPY') await requireRoomForCopy(userId, source, options.depthInfinity);
        await toTrash(userId, destination.resource);
      }
      const parentId = destination.parentId;
      if (method === 'MOVE') {
        if (source.kind === 'file') {
          await files.update(userId, source.file.id, { name, folderId: parentId });
          await dav.keepModified(userId, 'file', source.file.id, source.file.updated_at, deps.clock.now().toISOString());
        } else {
          await folders.update(userId, source.folder.id, { name, parentId });
          await dav.keepModified(userId, 'folder', source.folder.id, source.folder.updated_at, deps.clock.now().toISOString());
        }
        await deps.locks.released(userId, source.path);
        return { created: !existed };
      }
      if (source.kind === 'file') {
        await copyFile(userId, source.file, parentId, name);
        return { created: !existed };
      }
      const created = await folders.create(userId, { name, parentId });
      try {
        await copyFolderProperties(userId, source.folder.id, created.id);
        if (options.depthInfinity) await copyMembers(userId, source.folder.id, created.id);
      } catch (error) {
        // A copy that cannot finish (quota, plan limits) leaves nothing half-copied behind.
        await trash.trashFolder(userId, created.id);
        await trash.purgeItem(userId, 'folder', created.id);
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
      if ((await deps.properties.updateProperties(userId, { id, kind: resource.kind }, dead, PROPERTY_BOUNDS)) !== 'stored') {
        changes.forEach((change, index) => {
          if ('set' in change && change.set.namespace !== DAV_NS)
            outcomes[index] = { ...(outcomes[index] as (typeof outcomes)[number]), status: 507 };
        });
        return failed();
      }
      if (modifiedAt && resource.kind !== 'root')
        await dav.setModified(userId, resource.kind, id, modifiedAt, deps.clock.now().toISOString());
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
