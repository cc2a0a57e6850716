/**
 * The scan: what is on disk under the synced folder, keyed by sync path. Names the server
 * would change or count as one with a sibling are renamed on disk first (with a marker, and
 * reported), so every entry has a sync path the server will hold as it is. A file whose size,
 * mtime and inode match the journal's keeps the journal's hash: an unchanged tree costs a
 * walk and an lstat per item, no reads.
 *
 * Each folder is read with synchronous calls, the event loop given back between folders:
 * an lstat through the promise API costs three times a synchronous one (a thread hop and a
 * promise per item), and the whole walk is what the bench's two seconds are spent on.
 */
import { type Dirent, readdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { cleanItemName } from '@cloudvault/contract/validation';
import type { BaseEntry, Issue, LocalEntry, Snapshot, SyncPath } from '../model.ts';
import { type DiskStats, diskStatsSync } from './disk-stats.ts';
import { hashFile as defaultHashFile } from './hash.ts';
import { type IgnoreRules, PRIVATE_DIR } from './ignore-rules.ts';
import { CLASH_MARKER, firstFreeMarkedName, keyOf, RENAMED_MARKER, salvageName, serverWouldChange } from './name-rules.ts';
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
  /**
   * Each entry is handed here instead of kept (`entries` stays empty) and no file is hashed:
   * a walk that holds one folder at a time. Answering false stops the walk (`stopped`).
   */
  onEntry?: (entry: LocalEntry) => boolean;
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
  /** Renames made (or, on a dry run, that would be made). */
  renamed: LocalRename[];
  /** What each rename (or failed rename) tells a person: kind 'name' (or 'failing'). */
  nameIssues: Issue[];
  /**
   * Sync paths whose content the scan could not read (a folder it may not open, a file it
   * may not hash, an item it could not rename): what the journal holds at or under them
   * must be left alone, not deleted.
   */
  unreadable: SyncPath[];
  /** `onEntry` answered false: the walk ended there. */
  stopped: boolean;
}

/** Hashing reads files through the promise API: a few at once keep the disk busy. */
const HASH_CONCURRENCY = 4;

/** An item of a folder worth syncing, as lstat saw it. */
interface Seen {
  name: string;
  stats: DiskStats;
}

/** An item with the sync name it will have and what the journal knew there. */
interface Named {
  item: Seen;
  syncName: string;
  known: BaseEntry | undefined;
  /** Who keeps a name two items share: lowest first. */
  rank: number;
}

const join = (parent: string, name: string) => (parent === '' ? name : `${parent}/${name}`);
const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;
const byName = (a: { item: Seen }, b: { item: Seen }) => (a.item.name < b.item.name ? -1 : a.item.name > b.item.name ? 1 : 0);

/** Walks `root` and answers what is there, by sync path (see LocalScan). Throws when `root` itself cannot be read. */
export async function scanLocal(root: string, options: ScanOptions): Promise<LocalScan> {
  const { ignore, names, previous, dryRun = false } = options;
  const hashFile = options.hashFile ?? defaultHashFile;
  const now = options.now ?? (() => new Date());
  const result: LocalScan = { entries: new Map(), skipped: [], renamed: [], nameIssues: [], unreadable: [], stopped: false };
  const forms = new Map<SyncPath, string>();
  const toHash: { entry: LocalEntry; localPath: LocalPath }[] = [];
  const issue = (list: Issue[], p: SyncPath, kind: Issue['kind'], message: string): void => {
    list.push({ path: p, kind, message, at: now().toISOString() });
  };

  /** The items of one folder worth looking at, with their lstat: not ignored, not private; symlinks and the like reported. */
  const look = (localDir: LocalPath, syncDir: SyncPath, dirents: Dirent[]): Seen[] => {
    const seen: Seen[] = [];
    const absDir = path.join(root, localDir);
    for (const dirent of dirents) {
      const { name } = dirent;
      const localPath = join(localDir, name);
      if (localDir === '' && name === PRIVATE_DIR) continue;
      if (ignore.ignores(localPath, dirent.isDirectory())) continue;
      if (dirent.isSymbolicLink()) {
        issue(result.skipped, join(syncDir, name), 'skipped', `Symbolic link not synced: ${localPath}`);
        continue;
      }
      // Gone between the listing and the lstat: it is simply not there any more.
      const stats = diskStatsSync(`${absDir}${path.sep}${name}`);
      if (!stats) continue;
      if (stats.kind === 'other') issue(result.skipped, join(syncDir, name), 'skipped', `Not a regular file, not synced: ${localPath}`);
      else seen.push({ name, stats });
    }
    return seen;
  };

  /**
   * Each item's sync name: a kept mapping's, else its own in NFC. Names the server would
   * change, and all but the first of names the server counts as one, are renamed on disk.
   */
  const nameAll = (localDir: LocalPath, syncDir: SyncPath, seen: Seen[], allNames: string[]): Named[] => {
    const byKey = new Map<string, Named>();
    const clashing: Named[] = [];
    const toRename: { item: Seen; base: string; reason: LocalRename['reason'] }[] = [];
    for (const item of seen) {
      const mapped = names.mappedSyncName(syncDir, item.name);
      if (mapped === undefined && serverWouldChange(item.name)) {
        toRename.push({ item, base: cleanItemName(item.name) ?? salvageName(item.name), reason: 'server-name' });
        continue;
      }
      const syncName = mapped ?? item.name.normalize('NFC');
      const known = previous(join(syncDir, syncName));
      // A kept mapping, then the item the journal knows (same inode), then any the journal knows, then the NFC spelling.
      const rank = mapped !== undefined || known?.inode === item.stats.inode ? 0 : known ? 1 : item.name === syncName ? 2 : 3;
      const named = { item, syncName, known, rank };
      const key = keyOf(syncName);
      const other = byKey.get(key);
      if (!other) {
        byKey.set(key, named);
        continue;
      }
      const [keeper, loser] = other.rank < rank || (other.rank === rank && other.item.name < item.name) ? [other, named] : [named, other];
      byKey.set(key, keeper);
      clashing.push(loser);
    }
    for (const { item, syncName } of clashing) toRename.push({ item, base: syncName, reason: 'clash' });
    if (toRename.length === 0) return [...byKey.values()];

    const named = [...byKey.values()];
    const takenKeys = new Set(allNames.flatMap((name) => [keyOf(name), keyOf(cleanItemName(name) ?? name)]));
    for (const { syncName } of named) takenKeys.add(keyOf(syncName));
    for (const { item, base, reason } of toRename.sort(byName)) {
      const newName = firstFreeMarkedName(
        base,
        reason === 'clash' ? CLASH_MARKER : RENAMED_MARKER,
        (candidate) => takenKeys.has(keyOf(candidate)),
        names.platform,
      );
      takenKeys.add(keyOf(newName));
      const from = join(localDir, item.name);
      const to = join(localDir, newName);
      const done = !dryRun && renameIfFree(path.join(root, from), path.join(root, to));
      result.renamed.push({ from, to, reason, done });
      const why = reason === 'clash' ? 'another item in its folder has the same name on the server' : 'the server would change this name';
      if (done || dryRun) {
        issue(result.nameIssues, join(syncDir, newName), 'name', `${dryRun ? 'Would rename' : 'Renamed'} ${from} to ${newName}: ${why}`);
        named.push({ item: done ? { ...item, name: newName } : item, syncName: newName, known: undefined, rank: 2 });
      } else {
        // Its server name is unknown until renamed: whatever the journal holds there is left alone.
        result.unreadable.push(join(syncDir, base));
        issue(result.nameIssues, join(syncDir, newName), 'failing', `Could not rename ${from} to ${newName} (${why}): left as it is`);
      }
    }
    return named;
  };

  /** Reads one folder, records its items, and answers its subfolders. */
  const scanFolder = (localDir: LocalPath, syncDir: SyncPath): [LocalPath, SyncPath][] => {
    let dirents: Dirent[];
    try {
      dirents = readdirSync(path.join(root, localDir), { withFileTypes: true });
    } catch (error) {
      // Without its root the scan would answer an empty tree, which the planner would take for everything deleted.
      if (localDir === '') throw new Error(`Cannot read the synced folder ${root} (${codeOf(error) ?? String(error)})`);
      if (codeOf(error) !== 'ENOENT') {
        result.unreadable.push(syncDir);
        issue(result.skipped, syncDir, 'skipped', `Folder not readable (${codeOf(error) ?? String(error)}): ${localDir || '.'}`);
      }
      return [];
    }
    const subfolders: [LocalPath, SyncPath][] = [];
    const named = nameAll(
      localDir,
      syncDir,
      look(localDir, syncDir, dirents),
      dirents.map((d) => d.name),
    );
    for (const { item, syncName, known } of named) {
      // The journal's own string when it knows the item: one copy of each path in memory, not two.
      const syncPath = known?.path ?? join(syncDir, syncName);
      const localPath = join(localDir, item.name);
      if (item.name !== syncName && names.mappedSyncName(syncDir, item.name) === undefined) forms.set(syncPath, item.name);
      const { kind, size, mtimeMs, inode } = item.stats;
      const entry: LocalEntry = {
        path: syncPath,
        kind: kind === 'folder' ? 'folder' : 'file',
        size: kind === 'folder' ? 0 : size,
        mtimeMs,
        inode,
      };
      if (kind === 'folder') {
        subfolders.push([localPath, syncPath]);
      } else if (known?.kind === 'file' && known.hash && known.size === size && known.mtimeMs === mtimeMs && known.inode === inode) {
        entry.hash = known.hash;
      } else if (!options.onEntry) {
        toHash.push({ entry, localPath });
      }
      if (!options.onEntry) {
        result.entries.set(syncPath, entry);
      } else if (!options.onEntry(entry)) {
        result.stopped = true;
        return [];
      }
    }
    return subfolders;
  };

  const pending: [LocalPath, SyncPath][] = [['', '']];
  for (let next = pending.pop(); next && !result.stopped; next = pending.pop()) {
    pending.push(...scanFolder(next[0], next[1]));
    await yieldToEventLoop();
  }

  // Workers take the next file to hash from one shared list, so a first scan of a large tree queues no promise per file.
  let index = 0;
  const worker = async () => {
    while (index < toHash.length) {
      const job = toHash[index++];
      if (!job) break;
      try {
        job.entry.hash = await hashFile(path.join(root, job.localPath), job.entry.size);
      } catch (error) {
        result.entries.delete(job.entry.path);
        if (codeOf(error) === 'ENOENT') continue;
        result.unreadable.push(job.entry.path);
        issue(result.skipped, job.entry.path, 'skipped', `File not readable (${codeOf(error) ?? String(error)}): ${job.localPath}`);
      }
    }
  };
  await Promise.all(Array.from({ length: HASH_CONCURRENCY }, worker));
  if (!dryRun) names.observe(forms);
  return result;
}

/** Renames unless something already sits at `to` (a rename would replace a file silently); false when not renamed. */
function renameIfFree(from: string, to: string): boolean {
  if (diskStatsSync(to)) return false;
  try {
    renameSync(from, to);
    return true;
  } catch {
    return false;
  }
}
