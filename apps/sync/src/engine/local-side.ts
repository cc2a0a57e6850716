/**
 * The disk side of a pass over the local/ parts: the scan (with the journal's hashes), the
 * name translation, and the changes made on the planner's word, each refusing to replace
 * what it did not expect.
 */
import type { Stats } from 'node:fs';
import { lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { loadIgnoreRules } from '../local/ignore-rules.ts';
import { copyLocal, moveLocal, moveToLocalTrash, type LocalTree } from '../local/place.ts';
import { scanLocal } from '../local/scan.ts';
import { hasSettled } from '../local/stability.ts';
import type { BaseEntry, LocalEntry, Snapshot, SyncPath } from '../model.ts';
import { onDiskAsAgreed } from '../reconcile/unchanged.ts';
import type { LocalSide } from './ports.ts';

const entryOf = (syncPath: SyncPath, stats: Stats): LocalEntry => ({
  path: syncPath,
  kind: stats.isDirectory() ? 'folder' : 'file',
  size: stats.isDirectory() ? 0 : stats.size,
  mtimeMs: stats.mtimeMs,
  inode: `${stats.dev}:${stats.ino}`,
});

const isAtOrUnder = (candidate: SyncPath, prefix: SyncPath) => candidate === prefix || candidate.startsWith(`${prefix}/`);

/** The base entry as the disk held it when agreed: what the planner sees for a path the scan could not judge. */
const asAgreed = (entry: BaseEntry): LocalEntry => ({
  path: entry.path,
  kind: entry.kind,
  size: entry.size,
  mtimeMs: entry.mtimeMs,
  inode: entry.inode,
  ...(entry.hash ? { hash: entry.hash } : {}),
});

/**
 * The scan's answer made safe to plan on: what the scan could not read, and files changed
 * too recently to be finished, show as the journal last agreed (or not at all when new), so
 * nothing is deleted or uploaded half-written on their account.
 */
export function holdBack(
  entries: Snapshot<LocalEntry>,
  base: Snapshot<BaseEntry>,
  unreadable: SyncPath[],
  nowMs: number,
): { entries: Snapshot<LocalEntry>; unsettled: SyncPath[] } {
  const unsettled: SyncPath[] = [];
  for (const [syncPath, entry] of entries) {
    if (entry.kind !== 'file' || hasSettled(entry, nowMs)) continue;
    const agreed = base.get(syncPath);
    if (agreed && agreed.size === entry.size && agreed.mtimeMs === entry.mtimeMs && agreed.inode === entry.inode) continue;
    unsettled.push(syncPath);
    if (agreed) entries.set(syncPath, asAgreed(agreed));
    else entries.delete(syncPath);
  }
  if (unreadable.length > 0) {
    for (const [syncPath, agreed] of base) {
      if (!entries.has(syncPath) && unreadable.some((prefix) => isAtOrUnder(syncPath, prefix))) entries.set(syncPath, asAgreed(agreed));
    }
  }
  return { entries, unsettled };
}

/** The disk side for the synced folder `tree.root`. */
export function createLocalSide(tree: LocalTree, options: { dryRun: boolean; now: () => Date }): LocalSide {
  const absolute = (syncPath: SyncPath) => path.join(tree.root, tree.names.localPathFor(syncPath));
  return {
    async scan(base) {
      const ignore = await loadIgnoreRules(tree.root);
      const scan = await scanLocal(tree.root, {
        ignore,
        names: tree.names,
        previous: (p) => base.get(p),
        dryRun: options.dryRun,
        now: options.now,
      });
      const held = holdBack(scan.entries, base, scan.unreadable, options.now().getTime());
      return { entries: held.entries, issues: [...scan.skipped, ...scan.nameIssues], unsettled: held.unsettled };
    },
    async matchesJournal(agreed) {
      // The scan reads a folder's items together: the journal's rows of one folder are read at once.
      let folder: { path: SyncPath; entries: Snapshot<BaseEntry> } | undefined;
      const at = (syncPath: SyncPath) => {
        const parent = syncPath.slice(0, Math.max(0, syncPath.lastIndexOf('/')));
        if (folder?.path !== parent) folder = { path: parent, entries: agreed.in(parent) };
        return folder.entries.get(syncPath);
      };
      let seen = 0;
      const scan = await scanLocal(tree.root, {
        ignore: await loadIgnoreRules(tree.root),
        names: tree.names,
        previous: at,
        dryRun: true,
        now: options.now,
        onEntry: (entry) => {
          seen += 1;
          return onDiskAsAgreed(entry, at(entry.path));
        },
      });
      const reported = scan.skipped.length + scan.nameIssues.length + scan.renamed.length + scan.unreadable.length;
      return !scan.stopped && reported === 0 && seen === agreed.count;
    },
    async stat(syncPath) {
      try {
        return entryOf(syncPath, await lstat(absolute(syncPath)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async mkdir(syncPath) {
      await mkdir(absolute(syncPath), { recursive: true });
    },
    async move(from, to) {
      const moved = await moveLocal(tree, from, to);
      if (moved.status === 'missing') throw new Error(`${from} is no longer on disk`);
      if (moved.status === 'taken') throw new Error(`${to} is already taken on disk`);
    },
    async trash(syncPath) {
      await moveToLocalTrash(tree, syncPath, options.now());
    },
    async copy(from, to, check) {
      const copied = await copyLocal(tree, from, to, { expectedHash: check.hash, expected: check.expected });
      if (copied.status === 'missing' || copied.status === 'hash-mismatch')
        throw new Error(`${from} changed on disk meanwhile: looked at again`);
      if (copied.status === 'changed') throw new Error(`${to} changed on disk meanwhile: left as it is, looked at again`);
    },
  };
}
