import { type Kysely, sql } from 'kysely';
import type { Database, SharesTable } from '../../db/schema.ts';
import { recordShareRoot } from '../../db/share-root-changes.ts';

export type ShareRow = SharesTable;
/** A share with the name of what it shares (live items only). */
export type ListedShare = ShareRow & { item_name: string };

/** What a share is of: one file or one folder. */
export interface SharedItem {
  type: 'file' | 'folder';
  id: string;
}

/** Where a page of the owner's shares ends: the next one starts after it, newest first. */
export interface SharePageKey {
  createdAt: string;
  id: string;
}

/** Shares: queries only. Every owner-facing query is scoped to the owner. */
export function createSharesRepository(db: Kysely<Database>) {
  return {
    /** Stores the share; a private one's root enters its member's change feed in the same transaction. */
    async insert(row: ShareRow): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('shares').values(row).execute();
        if (row.kind === 'private') await recordShareRoot(trx, row, 'created', row.created_at);
      });
    },

    findByTokenHash(tokenHash: string): Promise<ShareRow | undefined> {
      return db.selectFrom('shares').selectAll().where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).executeTakeFirst();
    },

    /** The active private share of this file or folder with this e-mail, if there is one. */
    findPrivate(userId: string, item: SharedItem, email: string): Promise<ShareRow | undefined> {
      return db
        .selectFrom('shares')
        .selectAll()
        .where('user_id', '=', userId)
        .where('kind', '=', 'private')
        .where(item.type === 'file' ? 'file_id' : 'folder_id', '=', item.id)
        .where('email', '=', email)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
    },

    /** A page of the owner's shares of live items, not revoked, newest first, after `after` (the last of the page before). */
    listForOwnerPage(userId: string, after: SharePageKey | null, limit: number): Promise<ListedShare[]> {
      return (
        db
          .selectFrom('shares')
          .leftJoin('files', (join) => join.onRef('files.id', '=', 'shares.file_id').on('files.deleted_at', 'is', null))
          .leftJoin('folders', (join) => join.onRef('folders.id', '=', 'shares.folder_id').on('folders.deleted_at', 'is', null))
          .selectAll('shares')
          .select(sql<string>`coalesce(files.name, folders.name)`.as('item_name'))
          .where('shares.user_id', '=', userId)
          .where('shares.revoked_at', 'is', null)
          .where(sql<boolean>`coalesce(files.id, folders.id) IS NOT NULL`)
          // After the page before in (created_at desc, id) order.
          .$if(after !== null, (query) =>
            query.where((eb) =>
              eb.or([
                eb('shares.created_at', '<', after!.createdAt),
                eb.and([eb('shares.created_at', '=', after!.createdAt), eb('shares.id', '>', after!.id)]),
              ]),
            ),
          )
          .orderBy('shares.created_at', 'desc')
          .orderBy('shares.id')
          .limit(limit)
          .execute()
      );
    },

    /** Revokes the share; a private one's root leaves its member's change feed in the same transaction. */
    revoke(userId: string, id: string, now: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('shares')
          .set({ revoked_at: now })
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .where('revoked_at', 'is', null)
          .returningAll()
          .executeTakeFirst();
        if (!row) return false;
        if (row.kind === 'private') await recordShareRoot(trx, row, 'deleted', now);
        return true;
      });
    },

    /**
     * Counts a download unless the link's limit is reached: one conditional UPDATE, so of two
     * downloads racing for the last one (on any node) exactly one is counted. False: refused.
     */
    async countDownload(id: string): Promise<boolean> {
      const result = await db
        .updateTable('shares')
        .set((eb) => ({ download_count: eb('download_count', '+', 1) }))
        .where('id', '=', id)
        .where((eb) => eb.or([eb('download_limit', 'is', null), eb('download_count', '<', eb.ref('download_limit'))]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** One of the owner's shares, not revoked, of a live item, with the item's name. */
    findForOwner(userId: string, id: string): Promise<ListedShare | undefined> {
      return db
        .selectFrom('shares')
        .leftJoin('files', (join) => join.onRef('files.id', '=', 'shares.file_id').on('files.deleted_at', 'is', null))
        .leftJoin('folders', (join) => join.onRef('folders.id', '=', 'shares.folder_id').on('folders.deleted_at', 'is', null))
        .selectAll('shares')
        .select(sql<string>`coalesce(files.name, folders.name)`.as('item_name'))
        .where('shares.id', '=', id)
        .where('shares.user_id', '=', userId)
        .where('shares.revoked_at', 'is', null)
        .where(sql<boolean>`coalesce(files.id, folders.id) IS NOT NULL`)
        .executeTakeFirst();
    },

    /** Changes an active share of the owner's in place (its token stays); false when there is none. */
    async update(userId: string, id: string, changes: ShareChanges): Promise<boolean> {
      const result = await db
        .updateTable('shares')
        .set(changes)
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Live folders shared privately with this e-mail, with the share and the owner. */
    sharedWithEmail(email: string) {
      return db
        .selectFrom('shares')
        .innerJoin('folders', 'folders.id', 'shares.folder_id')
        .innerJoin('users', 'users.id', 'shares.user_id')
        .select([
          'shares.id as share_id',
          'shares.role as share_role',
          'shares.may_reshare',
          'folders.id',
          'folders.name',
          'folders.created_at',
          'folders.updated_at',
          'users.id as owner_id',
          'users.first_name',
          'users.last_name',
        ])
        .where('shares.kind', '=', 'private')
        .where('shares.email', '=', email)
        .where('shares.revoked_at', 'is', null)
        .where('folders.deleted_at', 'is', null)
        .orderBy('folders.name')
        .execute();
    },

    /** Live files shared privately (on their own) with this e-mail, with the share and the owner. */
    filesSharedWithEmail(email: string) {
      return db
        .selectFrom('shares')
        .innerJoin('files', 'files.id', 'shares.file_id')
        .innerJoin('users', 'users.id', 'shares.user_id')
        .select([
          'files.id',
          'files.name',
          'files.mimetype',
          'files.size',
          'files.folder_id',
          'files.created_at',
          'files.updated_at',
          'files.sha256',
          'shares.id as share_id',
          'shares.role as share_role',
          'shares.may_reshare',
          'users.id as owner_id',
          'users.first_name',
          'users.last_name',
        ])
        .where('shares.kind', '=', 'private')
        .where('shares.email', '=', email)
        .where('shares.revoked_at', 'is', null)
        .where('files.deleted_at', 'is', null)
        .orderBy('files.name')
        .execute();
    },

    /** The active private share of this file of one owner, on its own, with the e-mail. */
    async fileShareWith(ownerId: string, email: string, fileId: string): Promise<ShareGrant | undefined> {
      return db
        .selectFrom('shares')
        .select(['id', 'role', 'may_reshare'])
        .where('user_id', '=', ownerId)
        .where('kind', '=', 'private')
        .where('email', '=', email)
        .where('revoked_at', 'is', null)
        .where('file_id', '=', fileId)
        .limit(1)
        .executeTakeFirst();
    },

    /** Of these folders of one owner, the active private shares of those shared with the e-mail. */
    async privateSharesAmong(ownerId: string, email: string, folderIds: string[]): Promise<Array<ShareGrant & { folder_id: string }>> {
      if (folderIds.length === 0) return [];
      const rows = await db
        .selectFrom('shares')
        .select(['id', 'role', 'may_reshare', 'folder_id'])
        .where('user_id', '=', ownerId)
        .where('kind', '=', 'private')
        .where('email', '=', email)
        .where('revoked_at', 'is', null)
        .where('folder_id', 'in', folderIds)
        .execute();
      return rows.map((row) => ({ ...row, folder_id: row.folder_id as string }));
    },

    /** Active shares (not revoked, not expired) and downloads through the owner's links. */
    async counts(userId: string, now: string): Promise<{ shared: number; downloads: number }> {
      const row = await db
        .selectFrom('shares')
        .select([
          sql<number>`sum(CASE WHEN revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ${now}) THEN 1 ELSE 0 END)`.as('shared'),
          sql<number>`sum(download_count)`.as('downloads'),
        ])
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return { shared: Number(row.shared ?? 0), downloads: Number(row.downloads ?? 0) };
    },
  };
}

export type SharesRepository = ReturnType<typeof createSharesRepository>;

/** The settings PATCH /api/shares/:id may change; never the token, the item or the owner. */
export type ShareChanges = Partial<
  Pick<SharesTable, 'role' | 'may_reshare' | 'expires_at' | 'download_limit' | 'password_hash' | 'message'>
>;

/** What an active private share grants: its id, the role stored and whether it may be shared further. */
export type ShareGrant = Pick<SharesTable, 'id' | 'role' | 'may_reshare'>;
