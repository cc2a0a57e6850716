import { nameKey } from '@cloudvault/contract/validation';
import { type Kysely, sql } from 'kysely';
import { fileChange, folderChange, recordTreeChanges } from '../../db/change-journal.ts';
import type { Database, DavLocksTable } from '../../db/schema.ts';

/** A folder as WebDAV shows it. */
export interface DavFolderRow {
  id: string;
  name: string;
  parent_id: string | null;
  created_at: string;
  updated_at: string;
  /** Renewed by the change journal whenever anything below the folder changes (its getetag); written by the database's default first. */
  tree_tag?: string;
}

/** A file as WebDAV shows and serves it. */
export interface DavFileRow {
  id: string;
  name: string;
  folder_id: string | null;
  mimetype: string;
  size: number;
  sha256: string;
  blob_key: string;
  created_at: string;
  updated_at: string;
}

export type DavLockRow = DavLocksTable;

/** A dead property: its namespace, name and content as XML. */
export interface DeadProperty {
  namespace: string;
  name: string;
  value: string;
}

const FOLDER_COLUMNS = ['id', 'name', 'parent_id', 'created_at', 'updated_at', 'tree_tag'] as const;
const FILE_COLUMNS = ['id', 'name', 'folder_id', 'mimetype', 'size', 'sha256', 'blob_key', 'created_at', 'updated_at'] as const;

/** Escapes LIKE's wildcards so a path matches only itself as a prefix. */
const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** WebDAV's view of My Files by name, its dead properties and its locks: queries only, scoped to the owner. */
export function createDavRepository(db: Kysely<Database>) {
  /**
   * Sets when a live file or folder was last modified (X-OC-Mtime, PROPPATCH of
   * getlastmodified): a change of its metadata, so `updated` in the change feed, and a new
   * ETag for every folder above it, in the same transaction.
   */
  async function setModified(userId: string, kind: 'file' | 'folder', id: string, modifiedAt: string, at: string): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const change =
        kind === 'file'
          ? await trx
              .updateTable('files')
              .set({ updated_at: modifiedAt })
              .where('id', '=', id)
              .where('user_id', '=', userId)
              .where('deleted_at', 'is', null)
              .returning(['id', 'folder_id', 'name', 'size', 'sha256', 'updated_at'])
              .executeTakeFirst()
              .then((row) => row && fileChange('updated', row))
          : await trx
              .updateTable('folders')
              .set({ updated_at: modifiedAt })
              .where('id', '=', id)
              .where('user_id', '=', userId)
              .where('deleted_at', 'is', null)
              .returning(['id', 'parent_id', 'name', 'updated_at'])
              .executeTakeFirst()
              .then((row) => row && folderChange('updated', row));
      if (change) await recordTreeChanges(trx, userId, [change], at);
    });
  }

  return {
    /** The live folder of this name in the parent (null: the root), names compared by key as the unique index does. */
    folderNamed(userId: string, parentId: string | null, name: string): Promise<DavFolderRow | undefined> {
      return db
        .selectFrom('folders')
        .select(FOLDER_COLUMNS)
        .where('user_id', '=', userId)
        .where(sql<string>`coalesce(parent_id, '')`, '=', parentId ?? '')
        .where('name_key', '=', nameKey(name))
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },

    fileNamed(userId: string, folderId: string | null, name: string): Promise<DavFileRow | undefined> {
      return db
        .selectFrom('files')
        .select(FILE_COLUMNS)
        .where('user_id', '=', userId)
        .where(sql<string>`coalesce(folder_id, '')`, '=', folderId ?? '')
        .where('name_key', '=', nameKey(name))
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },

    /** The owner's live folder of this id (a shared folder, reached by its id from Shared with me). */
    folderById(ownerId: string, id: string): Promise<DavFolderRow | undefined> {
      return db
        .selectFrom('folders')
        .select(FOLDER_COLUMNS)
        .where('user_id', '=', ownerId)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },
    /** The owner's live file of this id (a file shared on its own). */
    fileById(ownerId: string, id: string): Promise<DavFileRow | undefined> {
      return db
        .selectFrom('files')
        .select(FILE_COLUMNS)
        .where('user_id', '=', ownerId)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },
    /** A page of a parent's live folders by name after `afterName`, on folders_live_name_key_idx. */
    foldersPage(userId: string, parentId: string | null, afterName: string | null, limit: number): Promise<DavFolderRow[]> {
      return db
        .selectFrom('folders')
        .select(FOLDER_COLUMNS)
        .where('user_id', '=', userId)
        .where(sql<string>`coalesce(parent_id, '')`, '=', parentId ?? '')
        .where('deleted_at', 'is', null)
        .$if(afterName !== null, (query) => query.where('name_key', '>', nameKey(afterName ?? '')))
        .orderBy('name_key')
        .limit(limit)
        .execute();
    },

    /** A page of a folder's live files by name after `afterName`, on files_live_name_key_idx. */
    filesPage(userId: string, folderId: string | null, afterName: string | null, limit: number): Promise<DavFileRow[]> {
      return db
        .selectFrom('files')
        .select(FILE_COLUMNS)
        .where('user_id', '=', userId)
        .where(sql<string>`coalesce(folder_id, '')`, '=', folderId ?? '')
        .where('deleted_at', 'is', null)
        .$if(afterName !== null, (query) => query.where('name_key', '>', nameKey(afterName ?? '')))
        .orderBy('name_key')
        .limit(limit)
        .execute();
    },

    /**
     * How many entries the user's change feed holds (0 before the first): it grows with every
     * change anywhere in their tree, so My Files' getetag follows it.
     */
    async changeHead(userId: string): Promise<number> {
      const head = await db.selectFrom('change_heads').select('seq').where('user_id', '=', userId).executeTakeFirst();
      return Number(head?.seq ?? 0);
    },

    setModified,

    /**
     * Gives a moved file or folder back the modification time it had before the move, as
     * WebDAV's MOVE keeps it. The move's entry carried the time of the move, so this writes
     * `updated` with the time kept: the feed's last word on the item is what a listing shows.
     */
    async keepModified(userId: string, kind: 'file' | 'folder', id: string, modifiedAt: string, at: string): Promise<void> {
      await setModified(userId, kind, id, modifiedAt, at);
    },

    /** The dead properties of these resources ("/" is the root), by resource. */
    async properties(userId: string, resourceIds: readonly string[]): Promise<Map<string, DeadProperty[]>> {
      const byResource = new Map<string, DeadProperty[]>();
      for (let i = 0; i < resourceIds.length; i += 500) {
        const rows = await db
          .selectFrom('dav_properties')
          .select(['resource_id', 'namespace', 'name', 'value'])
          .where('user_id', '=', userId)
          .where('resource_id', 'in', resourceIds.slice(i, i + 500))
          .execute();
        for (const { resource_id, ...property } of rows) byResource.set(resource_id, [...(byResource.get(resource_id) ?? []), property]);
      }
      return byResource;
    },

    /** The user's unexpired locks on these paths or anywhere under `below`. */
    locksAt(userId: string, pathKeys: readonly string[], now: string, below?: string): Promise<DavLockRow[]> {
      return db
        .selectFrom('dav_locks')
        .selectAll()
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .where((eb) => {
          const at = eb('path_key', 'in', pathKeys);
          if (below === undefined) return at;
          return eb.or([at, eb(sql<string>`path_key`, 'like', sql<string>`${likePrefix(below === '/' ? '/' : `${below}/`)} ESCAPE '\\'`)]);
        })
        .execute();
    },

    /** Every unexpired lock of the user (a listing shows each resource's). */
    allLocks(userId: string, now: string): Promise<DavLockRow[]> {
      return db.selectFrom('dav_locks').selectAll().where('user_id', '=', userId).where('expires_at', '>', now).execute();
    },

    async refreshLock(userId: string, token: string, timeoutSeconds: number, expiresAt: string): Promise<void> {
      await db
        .updateTable('dav_locks')
        .set({ timeout_seconds: timeoutSeconds, expires_at: expiresAt })
        .where('user_id', '=', userId)
        .where('token', '=', token)
        .execute();
    },

    async deleteLock(userId: string, token: string): Promise<boolean> {
      const result = await db.deleteFrom('dav_locks').where('user_id', '=', userId).where('token', '=', token).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Removes the locks on a path and under it: the resource they locked is gone (DELETE, MOVE). */
    async deleteLocksFrom(userId: string, key: string): Promise<void> {
      await db
        .deleteFrom('dav_locks')
        .where('user_id', '=', userId)
        .where((eb) =>
          eb.or([
            eb('path_key', '=', key),
            eb(sql<string>`path_key`, 'like', sql<string>`${likePrefix(key === '/' ? '/' : `${key}/`)} ESCAPE '\\'`),
          ]),
        )
        .execute();
    },
  };
}

export type DavRepository = ReturnType<typeof createDavRepository>;
