/**
 * The scan: what is on disk under the synced folder, keyed by sync path. Names the server
 * would change or count as one with a sibling are renamed on disk first (with a marker, and
 * reported), so every entry has a sync path the server will hold as it is. A file whose size,
 * mtime and inode match the journal's keeps the journal's hash: an unchanged tree costs a
 * walk and an lstat per item, no reads.
 */
import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { cleanItemName, nameKey } from '@cloudvault/contract/validation';
import type { BaseEntry, Issue, LocalEntry, Snapshot, SyncPath } from '../model.ts';
import { hashFile as defaultHashFile } from './hash.ts';
import { type IgnoreRules, PRIVATE_DIR } from './ignore-rules.ts';
import { createLimiter } from './limiter.ts';
import { CLASH_MARKER, firstFreeMarkedName, RENAMED_MARKER, salvageName, serverWouldChange } from './name-rules.ts';
import type { LocalNames, LocalPath } from './names.ts';

export interface ScanOptions {
  ignore: IgnoreRules;
  names: LocalNames;
  /** What the journal agreed on at a sync path (its size, mtime, inode and hash). */
  previous: (path: SyncPath) => BaseEntry | undefined;
  hashFile?: (absPath: string, size: number) => Promise<string>;
  /** Renames are reported, not made (`--dry-run`). */
  dryRun?: boolean;
  /** When the issues happened. */
  now?: () => Date;
}

/** A local item renamed so the server keeps its name as it is. */
export interface LocalRename {
  from: LocalPath;
  to: LocalPath;
  reason: 'server-name' | 'clash';
  /** False on a dry run, or when the rename failed (the item is then left out, and `unreadable`). */
  done: boolean;
}

export interface LocalScan {
  entries: Snapshot<LocalEntry>;
  /** Symlinks, special files, unreadable folders and files: each said once, with its reason. */
  skipped: Issue[];
  /** Renames made (or, on a dry run, that would be made); each also reported as an Issue of kind 'name'. */
  renamed: LocalRename[];
  nameIssues: Issue[];
  /**
   * Sync paths whose content the scan could not read (a folder it may not open, a file it
   * may not hash): what the journal holds at or under them must be left alone, not deleted.
   */
  unreadable: SyncPath[];
}

/** The libuv pool has four threads: a few more tasks than that keep it fed. */
const STAT_CONCURRENCY = 32;
const HASH_CONCURRENCY = 4;

interface Seen {
  name: string;
  stats: Stats;
  isDirectory: boolean;
}

const join = (parent: string, name: string) => (parent === '' ? name : `${parent}/${name}`);
const inodeOf = (stats: Stats) => `${stats.dev}:${stats.ino}`;
const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** Walks `root` and answers what is there, by sync path (see LocalScan). */
export async function scanLocal(root: string, options: ScanOptions): Promise<LocalScan> {
  const { ignore, names, previous, dryRun = false } = options;
  const hashFile = options.hashFile ?? defaultHashFile;
  const now = options.now ?? (() => new Date());
  const io = createLimiter(STAT_CONCURRENCY);
  const hashing = createLimiter(HASH_CONCURRENCY);
  const result: LocalScan = { entries: new Map(), skipped: [], renamed: [], nameIssues: [], unreadable: [] };
  const forms = new Map<SyncPath, string>();
  const issue = (list: Issue[], p: SyncPath, kind: Issue['kind'], message: string): void => {
    list.push({ path: p, kind, message, at: now().toISOString() });
  };

  /** The items of one folder worth looking at, with their lstat: not ignored, not private, symlinks and the like reported. */
  const look = async (localDir: LocalPath, syncDir: SyncPath, dirents: Dirent[]): Promise<Seen[]> => {
    const seen: Seen[] = [];
    await Promise.all(
      dirents.map(async (dirent) => {
        const localPath = join(localDir, dirent.name);
        if (localDir === '' && dirent.name === PRIVATE_DIR) return;
        const isDirectory = dirent.isDirectory();
        if (ignore.ignores(localPath, isDirectory)) return;
        if (dirent.isSymbolicLink()) return issue(result.skipped, join(syncDir, dirent.name), 'skipped', `Symbolic link not synced: ${localPath}`);
        if (!isDirectory && !dirent.isFile()) return issue(result.skipped, join(syncDir, dirent.name), 'skipped', `Not a regular file, not synced: ${localPath}`);
        try {
          seen.push({ name: dirent.name, isDirectory, stats: await io(() => lstat(path.join(root, localPath))) });
        } catch (error) {
          // Gone between the listing and the lstat: it is simply not there any more.
          if (codeOf(error) !== 'ENOENT') throw error;
        }
      }),
    );
    return seen;
  };

  /**
   * Each item's sync name: a kept mapping's, else its own in NFC. Names the server would
   * change, and all but the first of names the server counts as one, are renamed on disk.
   */
  const nameAll = async (localDir: LocalPath, syncDir: SyncPath, seen: Seen[], allNames: string[]) => {
    const named: { item: Seen; syncName: string }[] = [];
    const toRename: { item: Seen; base: string; reason: LocalRename['reason'] }[] = [];
    const groups = new Map<string, { item: Seen; syncName: string; rank: number }[]>();
    for (const item of seen) {
      const mapped = names.mappedSyncName(syncDir, item.name);
      if (mapped === undefined && serverWouldChange(item.name)) {
        toRename.push({ item, base: cleanItemName(item.name) ?? salvageName(item.name), reason: 'server-name' });
        continue;
      }
      const syncName = mapped ?? item.name.normalize('NFC');
      const known = previous(join(syncDir, syncName));
      // Who keeps a shared name: a kept mapping, then the item the journal knows (same inode), then any the journal knows, then the NFC spelling.
      const rank = mapped !== undefined || known?.inode === inodeOf(item.stats) ? 0 : known ? 1 : item.name === syncName ? 2 : 3;
      const key = nameKey(syncName);
      groups.set(key, [...(groups.get(key) ?? []), { item, syncName, rank }]);
    }
    for (const group of groups.values()) {
      const [keeper, ...others] = group.sort((a, b) => a.rank - b.rank || (a.item.name < b.item.name ? -1 : 1));
      if (keeper) named.push({ item: keeper.item, syncName: keeper.syncName });
      for (const { item, syncName } of others) toRename.push({ item, base: syncName, reason: 'clash' });
    }
    const takenKeys = new Set(allNames.flatMap((name) => [nameKey(name), nameKey(cleanItemName(name) ?? name)]));
    for (const { syncName } of named) takenKeys.add(nameKey(syncName));
    toRename.sort((a, b) => (a.item.name < b.item.name ? -1 : 1));
    for (const { item, base, reason } of toRename) {
      const marker = reason === 'clash' ? CLASH_MARKER : RENAMED_MARKER;
      const newName = firstFreeMarkedName(base, marker, (candidate) => takenKeys.has(nameKey(candidate)), names.platform);
      takenKeys.add(nameKey(newName));
      const from = join(localDir, item.name);
      const to = join(localDir, newName);
      const done = !dryRun && (await renameIfFree(path.join(root, from), path.join(root, to)));
      result.renamed.push({ from, to, reason, done });
      const why = reason === 'clash' ? 'another item in its folder has the same name on the server' : 'the server would change this name';
      if (done || dryRun) {
        issue(result.nameIssues, join(syncDir, newName), 'name', `${dryRun ? 'Would rename' : 'Renamed'} ${from} to ${newName}: ${why}`);
        named.push({ item: done ? { ...item, name: newName } : item, syncName: newName });
      } else {
        // Its server name is unknown until renamed: whatever the journal holds there is left alone.
        result.unreadable.push(join(syncDir, base));
        issue(result.nameIssues, join(syncDir, newName), 'failing', `Could not rename ${from} to ${newName} (${why}): left as it is`);
      }
    }
    return named;
  };

  const scanFolder = async (localDir: LocalPath, syncDir: SyncPath): Promise<void> => {
    let dirents: Dirent[];
    try {
      dirents = await io(() => readdir(path.join(root, localDir), { withFileTypes: true }));
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return;
      result.unreadable.push(syncDir);
      return issue(result.skipped, syncDir, 'skipped', `Folder not readable (${codeOf(error) ?? String(error)}): ${localDir || '.'}`);
    }
    const named = await nameAll(localDir, syncDir, await look(localDir, syncDir, dirents), dirents.map((d) => d.name));
    await Promise.all(
      named.map(async ({ item, syncName }) => {
        const syncPath = join(syncDir, syncName);
        const localPath = join(localDir, item.name);
        if (item.name !== syncName && names.mappedSyncName(syncDir, item.name) === undefined) forms.set(syncPath, item.name);
        const { stats } = item;
        const entry: LocalEntry = { path: syncPath, kind: item.isDirectory ? 'folder' : 'file', size: item.isDirectory ? 0 : stats.size, mtimeMs: stats.mtimeMs, inode: inodeOf(stats) };
        if (item.isDirectory) {
          result.entries.set(syncPath, entry);
          return scanFolder(localPath, syncPath);
        }
        const known = previous(syncPath);
        if (known?.kind === 'file' && known.hash && known.size === entry.size && known.mtimeMs === entry.mtimeMs && known.inode === entry.inode) {
          entry.hash = known.hash;
        } else {
          try {
            entry.hash = await hashing(() => hashFile(path.join(root, localPath), entry.size));
          } catch (error) {
            if (codeOf(error) === 'ENOENT') return;
            result.unreadable.push(syncPath);
            return issue(result.skipped, syncPath, 'skipped', `File not readable (${codeOf(error) ?? String(error)}): ${localPath}`);
          }
        }
        result.entries.set(syncPath, entry);
      }),
    );
  };

  await scanFolder('', '');
  if (!dryRun) names.observe(forms);
  return result;
}

/** Renames unless something already sits at `to` (rename would replace a file silently); false when not renamed. */
async function renameIfFree(from: string, to: string): Promise<boolean> {
  try {
    await lstat(to);
    return false;
  } catch (error) {
    if (codeOf(error) !== 'ENOENT') return false;
  }
  try {
    await rename(from, to);
    return true;
  } catch {
    return false;
  }
}
