import { type Kysely, sql } from 'kysely';
import type { Database, LinkUploadsTable } from '../../db/schema.ts';

export type LinkUploadRow = LinkUploadsTable;

/** Adds a received file to the owner's notice, inside the transaction that counts it. */
export type AddNotice = (trx: Kysely<Database>) => Promise<void>;

/** Files received through links: the tus uploads of a link, and each finished file counted once. */
export function createPublicUploadsRepository(db: Kysely<Database>) {
  return {
    async insert(row: LinkUploadRow): Promise<void> {
      await db.insertInto('link_uploads').values(row).execute();
    },

    /** The link's resumable upload; one of another link, or none, is undefined. */
    find(shareId: string, uploadId: string): Promise<LinkUploadRow | undefined> {
      return db.selectFrom('link_uploads').selectAll().where('upload_id', '=', uploadId).where('share_id', '=', shareId).executeTakeFirst();
    },

    /**
     * Counts one file on the link (`upload_count`) and adds it to the owner's notice, in one
     * transaction that starts by writing the link's row: its lock makes concurrent uploads
     * on any node add to one notice. With `uploadId` (a resumable upload), only the first
     * run to mark that upload counted counts it: answers false for the others.
     */
    async countReceived(shareId: string, options: { uploadId?: string; addNotice?: AddNotice }): Promise<boolean> {
      return db
        .transaction()
        .execute(async (trx) => {
          await trx
            .updateTable('shares')
            .set({ upload_count: sql`upload_count + 1` })
            .where('id', '=', shareId)
            .execute();
          if (options.uploadId !== undefined) {
            const claimed = await trx
              .updateTable('link_uploads')
              .set({ counted: 1 })
              .where('upload_id', '=', options.uploadId)
              .where('counted', '=', 0)
              .executeTakeFirst();
            // Counted by an earlier run: the count taken above goes back with the transaction.
            if (Number(claimed.numUpdatedRows) === 0) throw new AlreadyCounted();
          }
          await options.addNotice?.(trx);
          return true;
        })
        .catch((error: unknown) => {
          if (error instanceof AlreadyCounted) return false;
          throw error;
        });
    },
  };
}

class AlreadyCounted extends Error {}

export type PublicUploadsRepository = ReturnType<typeof createPublicUploadsRepository>;
