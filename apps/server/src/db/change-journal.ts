import { randomBytes } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import { inBatches } from './batches.ts';
import type { ChangesTable, Database, FilesTable, FoldersTable } from './schema.ts';

type FileRowState = Pick<FilesTable, 'id' | 'folder_id' | 'name' | 'size' | 'sha256' | 'updated_at'>;
type FolderRowState = Pick<FoldersTable, 'id' | 'parent_id' | 'name' | 'updated_at'>;

/**
 * The one place the change journal is written (docs/decisions/0060-change-journal.md).
 * Every transaction that changes a tree calls recordTreeChanges last, after the rows that
 * cause it, so a change is in the feed exactly when it is committed. What it writes:
 * - the owner's entries, and an entry for each member of a private share that reaches
 *   the item (before or after a move: moving into a shared folder is `created` there,
 *   out of it `deleted`);
 * - a new tree_tag on every folder above a changed item (WebDAV's getetag of a folder);
 * - each account's numbers, taken from change_heads in id order as the last locks of the
 *   transaction, so an account's entries commit in the order of their numbers and two
 *   transactions cannot deadlock on them;
 * - one notification on the `cloudvault_changes` channel naming the accounts, which
 *   PostgreSQL delivers to every node at commit (SQLite: in this process, db/database.ts).
 */

export type ChangeOp = ChangesTable['op'];
export type ChangeKind = ChangesTable['kind'];

/** An item's change as its owner sees it: the item's state after the change. */
export interface TreeChange {
  op: ChangeOp;
  kind: ChangeKind;
  id: string;
  /** Where the item is after the change; for `deleted`, where it was. */
  parentId: string | null;
  /** For `moved`: where it was before (the same as parentId for a rename). */
  previousParentId?: string | null;
  name: string;
  size?: number;
  contentHash?: string;
  modifiedAt?: string;
}

/** The channel every node listens on; its payload names the accounts with new entries. */
export const CHANGES_CHANNEL = 'cloudvault_changes';
/** The payload that wakes every waiter (too many accounts for one notification). */
export const EVERY_ACCOUNT = '*';
/** PostgreSQL refuses payloads of 8,000 bytes or more. */
const MAX_PAYLOAD = 7900;

/** A file row's change. */
export function fileChange(op: ChangeOp, file: FileRowState, previousParentId?: string | null): TreeChange {
  return {
    op,
    kind: 'file',
    id: file.id,
    parentId: file.folder_id,
    ...(previousParentId !== undefined ? { previousParentId } : {}),
    name: file.name,
    size: Number(file.size),
    contentHash: file.sha256,
    modifiedAt: file.updated_at,
  };
}

/** A folder row's change. */
export function folderChange(op: ChangeOp, folder: FolderRowState, previousParentId?: string | null): TreeChange {
  return {
    op,
    kind: 'folder',
    id: folder.id,
    parentId: folder.parent_id,
    ...(previousParentId !== undefined ? { previousParentId } : {}),
    name: folder.name,
    modifiedAt: folder.updated_at,
  };
}

/**
 * Writes the owner's changes, and what members of their private shares see of them, in the caller's transaction.
 * `shareRoots`: members' entries for share roots the changes take away or bring back with them
 * (a shared folder inside a folder going to Trash); written in the same call, as every
 * account's number must be taken in one pass in id order.
 */
export async function recordTreeChanges(
  trx: Transaction<Database>,
  ownerId: string,
  changes: readonly TreeChange[],
  at: string,
  shareRoots: readonly FeedEntry[] = [],
): Promise<void> {
  if (changes.length === 0 && shareRoots.length === 0) return;
  await renewTreeTags(trx, ownerId, locationsOf(changes));
  const reach = await shareReach(trx, ownerId, changes);
  const entries: FeedEntry[] = changes.map((change) => ({ userId: ownerId, change, shareId: null }));
  for (const change of changes) entries.push(...memberEntries(change, reach));
  entries.push(...shareRoots);
  await appendEntries(trx, entries, at);
}

/** A member's view of a share's root: `created` when shared with them, `deleted` when no longer. */
export async function recordShareRootChange(
  trx: Transaction<Database>,
  memberId: string,
  shareId: string,
  root: TreeChange,
  at: string,
): Promise<void> {
  await appendEntries(trx, [{ userId: memberId, shareId, change: { ...root, parentId: null } }], at);
}

export interface FeedEntry {
  userId: string;
  shareId: string | null;
  change: TreeChange;
}

/** The folders whose listings a change touches: where each item is, and where a moved one was. */
function locationsOf(changes: readonly TreeChange[]): string[] {
  const locations = new Set<string>();
  for (const change of changes) {
    if (change.parentId !== null) locations.add(change.parentId);
    if (change.previousParentId) locations.add(change.previousParentId);
  }
  return [...locations];
}

/** Gives these folders and every folder above them a new tree_tag. */
async function renewTreeTags(trx: Transaction<Database>, ownerId: string, folderIds: string[]): Promise<void> {
  if (folderIds.length === 0) return;
  const tag = randomBytes(12).toString('base64url');
  await inBatches(folderIds, async (batch) => {
    await sql`
      WITH RECURSIVE up(id, parent_id) AS (
        SELECT id, parent_id FROM folders WHERE id IN (${sql.join(batch)}) AND user_id = ${ownerId}
        UNION
        SELECT f.id, f.parent_id FROM folders f JOIN up ON f.id = up.parent_id
      )
      UPDATE folders SET tree_tag = ${tag} WHERE id IN (SELECT id FROM up)`.execute(trx);
  });
}

/** A member who sees a place through a private share; `root` when the share is of the item itself. */
export interface Sight {
  memberId: string;
  shareId: string;
  depth: number;
}

export interface Reach {
  /** Members who see into each folder (through a share of it or of a folder above it), nearest share first. */
  byLocation: Map<string, Sight[]>;
  /** Members who see an item because it is shared itself. */
  byItem: Map<string, Sight[]>;
}

const NO_REACH: Reach = { byLocation: new Map(), byItem: new Map() };

/** Who sees the changed items through the owner's private shares, in two queries; none when the owner shares nothing privately. */
async function shareReach(trx: Transaction<Database>, ownerId: string, changes: readonly TreeChange[]): Promise<Reach> {
  const anyShare = await trx
    .selectFrom('shares')
    .select('id')
    .where('user_id', '=', ownerId)
    .where('kind', '=', 'private')
    .where('revoked_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  if (!anyShare) return NO_REACH;
  const reach: Reach = { byLocation: new Map(), byItem: new Map() };
  const add = (map: Map<string, Sight[]>, key: string, sight: Sight) => map.set(key, [...(map.get(key) ?? []), sight]);
  await inBatches(locationsOf(changes), async (batch) => {
    const rows = await sql<{ location: string; depth: number; share_id: string; member_id: string }>`
      WITH RECURSIVE up(location, id, parent_id, depth) AS (
        SELECT id, id, parent_id, 0 FROM folders WHERE id IN (${sql.join(batch)}) AND user_id = ${ownerId}
        UNION ALL
        SELECT up.location, f.id, f.parent_id, up.depth + 1 FROM folders f JOIN up ON f.id = up.parent_id
      )
      SELECT up.location, up.depth, s.id AS share_id, u.id AS member_id
      FROM up
      JOIN shares s ON s.folder_id = up.id AND s.kind = 'private' AND s.revoked_at IS NULL AND s.user_id = ${ownerId}
      JOIN users u ON u.email = s.email AND u.email_verified_at IS NOT NULL AND u.id <> ${ownerId}
      ORDER BY up.depth`.execute(trx);
    for (const row of rows.rows)
      add(reach.byLocation, row.location, { memberId: row.member_id, shareId: row.share_id, depth: Number(row.depth) });
  });
  await inBatches(
    changes.map((change) => change.id),
    async (batch) => {
      const rows = await sql<{ item_id: string; share_id: string; member_id: string }>`
        SELECT COALESCE(s.file_id, s.folder_id) AS item_id, s.id AS share_id, u.id AS member_id
        FROM shares s JOIN users u ON u.email = s.email AND u.email_verified_at IS NOT NULL AND u.id <> ${ownerId}
        WHERE s.user_id = ${ownerId} AND s.kind = 'private' AND s.revoked_at IS NULL
          AND (s.file_id IN (${sql.join(batch)}) OR s.folder_id IN (${sql.join(batch)}))`.execute(trx);
      for (const row of rows.rows) add(reach.byItem, row.item_id, { memberId: row.member_id, shareId: row.share_id, depth: -1 });
    },
  );
  return reach;
}

/** What each member sees of one change: the same op, or `created`/`deleted` when a move brings it into or out of their sight. */
export function memberEntries(change: TreeChange, reach: Reach): FeedEntry[] {
  const sightsAt = (location: string | null | undefined): Map<string, Sight> => {
    const sights = new Map<string, Sight>();
    for (const sight of reach.byItem.get(change.id) ?? []) sights.set(sight.memberId, sight);
    for (const sight of location ? (reach.byLocation.get(location) ?? []) : [])
      if (!sights.has(sight.memberId)) sights.set(sight.memberId, sight);
    return sights;
  };
  const after = sightsAt(change.parentId);
  const before = change.op === 'moved' && change.previousParentId !== undefined ? sightsAt(change.previousParentId) : after;
  const entries: FeedEntry[] = [];
  for (const [memberId, sight] of after) {
    const op = before.has(memberId) ? change.op : 'created';
    entries.push({
      userId: memberId,
      shareId: sight.shareId,
      change: { ...change, op, parentId: sight.depth < 0 ? null : change.parentId },
    });
  }
  for (const [memberId, sight] of before) {
    if (!after.has(memberId))
      entries.push({
        userId: memberId,
        shareId: sight.shareId,
        change: { ...change, op: 'deleted', parentId: sight.depth < 0 ? null : (change.previousParentId ?? null) },
      });
  }
  return entries;
}

/** Numbers the entries per account (the heads locked in id order, last) and writes them, then notifies. */
async function appendEntries(trx: Transaction<Database>, entries: FeedEntry[], at: string): Promise<void> {
  const counts = new Map<string, number>();
  for (const entry of entries) counts.set(entry.userId, (counts.get(entry.userId) ?? 0) + 1);
  const accounts = [...counts.keys()].sort();
  const next = new Map<string, number>();
  for (const userId of accounts) {
    const count = counts.get(userId)!;
    const head = await trx
      .insertInto('change_heads')
      .values({ user_id: userId, seq: count, pruned_through: 0 })
      .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ seq: sql`change_heads.seq + ${count}` }))
      .returning('seq')
      .executeTakeFirstOrThrow();
    next.set(userId, Number(head.seq) - count + 1);
  }
  const rows: ChangesTable[] = entries.map(({ userId, shareId, change }) => {
    const seq = next.get(userId)!;
    next.set(userId, seq + 1);
    const isFile = change.kind === 'file' && change.op !== 'deleted';
    return {
      user_id: userId,
      seq,
      op: change.op,
      kind: change.kind,
      item_id: change.id,
      parent_id: change.parentId,
      name: change.name,
      share_id: shareId,
      size: isFile ? (change.size ?? null) : null,
      content_hash: isFile ? (change.contentHash ?? null) : null,
      modified_at: change.op === 'deleted' ? null : (change.modifiedAt ?? null),
      at,
    };
  });
  await inBatches(rows, async (batch) => {
    await trx.insertInto('changes').values(batch).execute();
  });
  const payload = accounts.join(',');
  await sql`SELECT pg_notify(${CHANGES_CHANNEL}, ${payload.length > MAX_PAYLOAD ? EVERY_ACCOUNT : payload})`.execute(trx);
}
