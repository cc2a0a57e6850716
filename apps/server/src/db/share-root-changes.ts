import { type RawBuilder, sql, type Transaction } from 'kysely';
import { inBatches } from './batches.ts';
import { type ChangeOp, type FeedEntry, fileChange, folderChange, recordShareRootChange } from './change-journal.ts';
import type { Database, SharesTable } from './schema.ts';

/**
 * A private share's root appearing in (`created`) or leaving (`deleted`) its member's
 * change feed, in the transaction that makes or revokes the share (docs/decisions/0053,
 * 0060-change-journal.md). Only an account whose address is verified is the share's member,
 * as Shared with me has it, and only a live item is shown: one in Trash left the feed
 * when it went there.
 */
export async function recordShareRoot(
  trx: Transaction<Database>,
  share: Pick<SharesTable, 'id' | 'user_id' | 'email' | 'file_id' | 'folder_id'>,
  op: Extract<ChangeOp, 'created' | 'deleted'>,
  at: string,
): Promise<void> {
  if (share.email === null) return;
  const member = await trx
    .selectFrom('users')
    .select('id')
    .where('email', '=', share.email)
    .where('email_verified_at', 'is not', null)
    .where('id', '<>', share.user_id)
    .executeTakeFirst();
  if (!member) return;
  const root =
    share.file_id !== null ? await liveFile(trx, share.user_id, share.file_id) : await liveFolder(trx, share.user_id, share.folder_id);
  if (root)
    await recordShareRootChange(trx, member.id, share.id, root.kind === 'file' ? fileChange(op, root.row) : folderChange(op, root.row), at);
}

async function liveFile(trx: Transaction<Database>, ownerId: string, id: string) {
  const row = await trx
    .selectFrom('files')
    .select(['id', 'folder_id', 'name', 'size', 'sha256', 'updated_at'])
    .where('id', '=', id)
    .where('user_id', '=', ownerId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row && { kind: 'file' as const, row };
}

async function liveFolder(trx: Transaction<Database>, ownerId: string, id: string | null) {
  if (id === null) return undefined;
  const row = await trx
    .selectFrom('folders')
    .select(['id', 'parent_id', 'name', 'updated_at'])
    .where('id', '=', id)
    .where('user_id', '=', ownerId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row && { kind: 'folder' as const, row };
}

interface SharedRootRow {
  share_id: string;
  member_id: string;
  kind: 'file' | 'folder';
  id: string;
  parent_id: string | null;
  name: string;
  size: number | null;
  sha256: string | null;
  updated_at: string;
}

/** Where a share root's entry goes: `created`/`restored` when it appears, `deleted` when it leaves. */
type RootOp = Extract<ChangeOp, 'created' | 'deleted' | 'restored'>;

/**
 * Live items shared privately, with the account that sees each: `members` joins `u`, the
 * member's account, to the share `s`; `scope` picks the shares; `folders` and `files` pick
 * the items (`f`).
 */
async function readSharedRoots(
  trx: Transaction<Database>,
  members: RawBuilder<unknown>,
  scope: RawBuilder<unknown>,
  folders: RawBuilder<unknown> = sql`1 = 1`,
  files: RawBuilder<unknown> = sql`1 = 1`,
): Promise<SharedRootRow[]> {
  const active = sql`s.kind = 'private' AND s.revoked_at IS NULL AND ${scope}`;
  const result = await sql<SharedRootRow>`
    SELECT s.id AS share_id, u.id AS member_id, 'folder' AS kind, f.id, f.parent_id, f.name,
      NULL AS size, NULL AS sha256, f.updated_at
    FROM shares s JOIN folders f ON f.id = s.folder_id ${members}
    WHERE ${active} AND f.deleted_at IS NULL AND ${folders}
    UNION ALL
    SELECT s.id AS share_id, u.id AS member_id, 'file' AS kind, f.id, f.folder_id AS parent_id, f.name,
      f.size, f.sha256, f.updated_at
    FROM shares s JOIN files f ON f.id = s.file_id ${members}
    WHERE ${active} AND f.deleted_at IS NULL AND ${files}`.execute(trx);
  return result.rows;
}

/** Each row as an entry at the top of its member's feed, where Shared with me lists a share's root. */
function asRootEntries(rows: SharedRootRow[], op: RootOp): FeedEntry[] {
  return rows.map((row) => ({
    userId: row.member_id,
    shareId: row.share_id,
    change: {
      ...(row.kind === 'file'
        ? fileChange(op, { ...row, folder_id: row.parent_id, size: Number(row.size), sha256: row.sha256 ?? '' })
        : folderChange(op, row)),
      parentId: null,
    },
  }));
}

/**
 * The members' entries for the owner's live items shared privately, at the top of each
 * member's feed: what members lose (`deleted`) or get (`created`, `restored`) when something
 * other than the item itself takes it away or brings it back, which recordTreeChanges does
 * not see (it reaches members through the changed item and the folders above it):
 * - `within` a folder going to Trash (read before) or restored (read after): the items
 *   under `folderIds` other than the folder itself;
 * - without `within`, every one: the owner's account is deleted, suspended or restored.
 */
export async function sharedRootEntries(
  trx: Transaction<Database>,
  ownerId: string,
  op: RootOp,
  within?: { folderIds: readonly string[]; except: string },
): Promise<FeedEntry[]> {
  const members = sql`JOIN users u ON u.email = s.email AND u.email_verified_at IS NOT NULL AND u.id <> ${ownerId}`;
  const scope = sql`s.user_id = ${ownerId}`;
  const rows = within
    ? await inBatches(within.folderIds, (batch) =>
        readSharedRoots(
          trx,
          members,
          scope,
          sql`f.id IN (${sql.join(batch)}) AND f.id <> ${within.except}`,
          sql`f.folder_id IN (${sql.join(batch)})`,
        ),
      )
    : await readSharedRoots(trx, members, scope);
  return asRootEntries(rows, op);
}

/**
 * What an account sees appear (`created`) once its address is verified: every live item
 * shared privately with that address by an owner who is not suspended, as Shared with me
 * lists them from then on.
 */
export async function sharesReachingMember(trx: Transaction<Database>, memberId: string, email: string): Promise<FeedEntry[]> {
  const members = sql`JOIN users u ON u.id = ${memberId} AND u.id <> s.user_id
    JOIN users o ON o.id = s.user_id AND o.suspended_at IS NULL`;
  return asRootEntries(await readSharedRoots(trx, members, sql`s.email = ${email}`), 'created');
}
