import type { Settings } from '@cloudvault/contract/settings';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';

const TYPE = 'file_request_uploads';
/** The visitors' names a notice lists; more senders still count in its number of files. */
const NAMES_SHOWN = 5;

/** One file received through a link, as its owner is told of it. */
export interface ReceivedFileNotice {
  ownerId: string;
  shareId: string;
  /** The name of the link's folder, as it is when the file arrives. */
  folder: string;
  /** What the visitor typed, or "Someone". */
  uploaderName: string;
}

interface NoticeDetails {
  shareId: string;
  folder: string;
  count: string;
  names: string;
}

/**
 * Tells a link's owner of the files it receives in one in-app notification per link and
 * window (issue 38: "the owner is notified, batched"): the first file opens a notice, and
 * files within `windowMs` after it raise its count, add their sender's name and mark it
 * unread again. The notice is kept in the database and written inside the caller's
 * transaction, after the caller has locked the link's row, so uploads on two nodes at
 * once add to one notice. Only the bell: an e-mail per file, or per window, would be noise.
 */
export function createFileRequestNotices(deps: { settingsOf(userId: string): Promise<Settings>; clock: Clock; windowMs: number }) {
  return {
    /** Whether the owner's settings want it at all: in-app notifications on, and file sharing among them. */
    async wanted(ownerId: string): Promise<boolean> {
      const { notifications } = await deps.settingsOf(ownerId);
      return notifications.push && notifications.fileSharing;
    },

    /** Adds the file to the link's open notice, or opens one; `trx` holds the link's row locked. */
    async add(trx: Kysely<Database>, notice: ReceivedFileNotice): Promise<void> {
      const now = deps.clock.now();
      const windowStart = new Date(now.getTime() - deps.windowMs).toISOString();
      // The owner's notices of the window are few: their details are read here rather than indexed.
      const recent = await trx
        .selectFrom('notifications')
        .select(['id', 'details'])
        .where('user_id', '=', notice.ownerId)
        .where('type', '=', TYPE)
        .where('created_at', '>', windowStart)
        .orderBy('created_at', 'desc')
        .execute();
      const open = recent
        .map((row) => ({ id: row.id, details: JSON.parse(row.details) as NoticeDetails }))
        .find((row) => row.details.shareId === notice.shareId);
      if (!open) {
        const details: NoticeDetails = { shareId: notice.shareId, folder: notice.folder, count: '1', names: notice.uploaderName };
        await trx
          .insertInto('notifications')
          .values({
            id: newId(),
            user_id: notice.ownerId,
            type: TYPE,
            details: JSON.stringify(details),
            read_at: null,
            created_at: now.toISOString(),
          })
          .execute();
        return;
      }
      const names = open.details.names.split(', ');
      if (!names.includes(notice.uploaderName) && names.length < NAMES_SHOWN) names.push(notice.uploaderName);
      const details: NoticeDetails = {
        ...open.details,
        folder: notice.folder,
        count: String(Number(open.details.count) + 1),
        names: names.join(', '),
      };
      await trx
        .updateTable('notifications')
        .set({ details: JSON.stringify(details), read_at: null })
        .where('id', '=', open.id)
        .execute();
    },
  };
}

export type FileRequestNotices = ReturnType<typeof createFileRequestNotices>;
