import type { BaseEntry, LocalEntry, RemoteEntry, Snapshot } from '../model.ts';
import { comparePaths, joinPath, nameOf, parentOf } from './paths.ts';

/**
 * One thing the pass reasons about: a base entry with what became of it on each side (absent
 * = gone from that side), or a new entry on one side, or on both at the same path.
 */
export interface Item {
  base?: BaseEntry;
  local?: LocalEntry;
  remote?: RemoteEntry;
}

const sortedValues = <T extends { path: string }>(snapshot: Snapshot<T>): T[] =>
  [...snapshot.values()].sort((a, b) => comparePaths(a.path, b.path));

/** Local entries by inode; an inode seen twice (hard links) names nothing for sure. */
function indexByInode(local: Snapshot<LocalEntry>): Map<string, LocalEntry | null> {
  const index = new Map<string, LocalEntry | null>();
  for (const entry of local.values()) {
    if (!entry.inode) continue;
    index.set(entry.inode, index.has(entry.inode) ? null : entry);
  }
  return index;
}

function baseRowsByInode(items: Item[]): Map<string, Item[]> {
  const rows = new Map<string, Item[]>();
  for (const item of items) {
    if (item.base!.inode) rows.set(item.base!.inode, [...(rows.get(item.base!.inode) ?? []), item]);
  }
  return rows;
}

/**
 * A base entry's inode found at another path is a move made on disk. A folder's inode is
 * enough; a file's must also keep its mtime or content (a rename keeps the mtime), since a
 * deleted file's inode is soon reused by a new one.
 */
function sameItemByInode(base: BaseEntry, local: LocalEntry): boolean {
  if (local.kind !== base.kind) return false;
  if (local.path === base.path || base.kind === 'folder') return true;
  return local.mtimeMs === base.mtimeMs || (local.hash !== undefined && local.hash === base.hash);
}

/**
 * Pairs the base with both sides: the server's side by id (kept across moves), the disk's
 * by inode, then by path, then (files) by size and content when exactly one base file and
 * one new local file share them. What is left is new, paired by path when both sides made
 * the same kind of thing at the same place.
 */
export function matchItems(base: Snapshot<BaseEntry>, local: Snapshot<LocalEntry>, remote: Snapshot<RemoteEntry>): Item[] {
  const remoteById = new Map([...remote.values()].map((entry) => [entry.id, entry]));
  const { trusted, stale } = splitStaleRows(sortedValues(base), remoteById);
  const items = trusted.map((entry): Item => ({ base: entry }));
  const claimedRemote = new Set<string>();
  for (const item of items) {
    const found = remoteById.get(item.base!.remoteId);
    if (found && found.kind === item.base!.kind) {
      item.remote = found;
      claimedRemote.add(found.path);
    }
  }

  const claimedLocal = new Set<string>();
  const claim = (item: Item, entry: LocalEntry) => {
    item.local = entry;
    claimedLocal.add(entry.path);
  };
  const byInode = indexByInode(local);
  for (const [inode, rows] of baseRowsByInode(items)) {
    const found = byInode.get(inode);
    if (!found) continue;
    const candidates = rows.filter((item) => sameItemByInode(item.base!, found));
    // Two rows with one inode (a row left from a cut pass, an inode reused): the one at the
    // disk's path, else none for sure; path and content decide below.
    const owner = candidates.find((item) => item.base!.path === found.path) ?? (candidates.length === 1 ? candidates[0] : undefined);
    if (owner) claim(owner, found);
  }
  // Same place (an editor's save through a new file changes the inode): the base path, or
  // the same name in the folder the base parent moved to on disk. Parents come first (sorted).
  const byBasePath = new Map(items.map((item) => [item.base!.path, item]));
  for (const item of items) {
    const parent = byBasePath.get(parentOf(item.base!.path));
    const place = parent?.local ? joinPath(parent.local.path, nameOf(item.base!.path)) : item.base!.path;
    const found = local.get(place);
    if (!item.local && found && !claimedLocal.has(found.path) && found.kind === item.base!.kind) claim(item, found);
  }
  matchByContent(items, sortedValues(local), claimedLocal, claim);

  const newLocal = sortedValues(local).filter((entry) => !claimedLocal.has(entry.path));
  const newRemote = new Map(
    sortedValues(remote)
      .filter((entry) => !claimedRemote.has(entry.path))
      .map((entry) => [entry.path, entry]),
  );
  for (const entry of newLocal) {
    const twin = newRemote.get(entry.path);
    if (twin && twin.kind === entry.kind) {
      items.push({ local: entry, remote: twin });
      newRemote.delete(entry.path);
    } else {
      items.push({ local: entry });
    }
  }
  for (const entry of newRemote.values()) items.push({ remote: entry });
  // Claims nothing on either side: gone on both, the journal forgets it.
  for (const entry of stale) items.push({ base: entry });
  return items;
}

/**
 * The journal's rows, one per server item: a server item is at one place, so when several rows
 * name one remote id (a journal written before a download to a new place dropped the old row)
 * only one is that item: the row at the server's path, else the first by path. The others are
 * stale: were they matched, every one would pull the one server item to its own place, a cycle
 * of moves each pass (seed 2 of the randomized test). What they held on disk is then new.
 */
function splitStaleRows(base: BaseEntry[], remoteById: Map<string, RemoteEntry>): { trusted: BaseEntry[]; stale: BaseEntry[] } {
  const byRemoteId = new Map<string, BaseEntry[]>();
  for (const entry of base) byRemoteId.set(entry.remoteId, [...(byRemoteId.get(entry.remoteId) ?? []), entry]);
  const stale = new Set<BaseEntry>();
  for (const [remoteId, rows] of byRemoteId) {
    if (rows.length < 2) continue;
    const there = remoteById.get(remoteId)?.path;
    const kept = rows.find((row) => row.path === there) ?? rows[0]!;
    for (const row of rows) if (row !== kept) stale.add(row);
  }
  return { trusted: base.filter((entry) => !stale.has(entry)), stale: [...stale] };
}

/** A file moved on disk whose inode changed (another volume, a copy then delete): one base file and one new file with its size and content. */
function matchByContent(items: Item[], local: LocalEntry[], claimed: Set<string>, claim: (item: Item, entry: LocalEntry) => void): void {
  const key = (size: number, hash: string | undefined) => `${size}:${hash}`;
  const lost = new Map<string, Item[]>();
  for (const item of items) {
    if (item.local || item.base!.kind !== 'file' || !item.base!.hash) continue;
    const group = lost.get(key(item.base!.size, item.base!.hash)) ?? [];
    lost.set(key(item.base!.size, item.base!.hash), [...group, item]);
  }
  const found = new Map<string, LocalEntry[]>();
  for (const entry of local) {
    if (claimed.has(entry.path) || entry.kind !== 'file' || !entry.hash) continue;
    found.set(key(entry.size, entry.hash), [...(found.get(key(entry.size, entry.hash)) ?? []), entry]);
  }
  for (const [content, [item, ...otherItems]] of lost) {
    const [entry, ...otherEntries] = found.get(content) ?? [];
    if (item && entry && otherItems.length === 0 && otherEntries.length === 0) claim(item, entry);
  }
}
