/**
 * The translation between local paths and sync paths, so the planner sees sync paths only.
 * Two kinds of difference are known:
 * - a server name this disk cannot hold (too long in UTF-8 bytes, or Windows' reserved
 *   characters and names) gets a marked local name when it first comes down (localPathFor);
 *   the pair is kept in the journal's `name_map` table, since the disk alone cannot tell it;
 * - a local name in another Unicode form than the server's (macOS's decomposed `é`) is seen
 *   by each scan (observe) and needs no table: comparing by NFC finds it again.
 * Paths on both sides are relative to the root and `/`-separated.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { nameKey } from '@cloudvault/contract/validation';
import type { SyncPath } from '../model.ts';
import { diskCanHold, DISK_MARKER, firstFreeMarkedName, type Platform, windowsSafeBase } from './name-rules.ts';

/** A local path relative to the synced folder's root, `/`-separated, as the disk spells it. */
export type LocalPath = string;

export interface LocalNames {
  readonly platform: Platform;
  /** Where a sync path lives on disk; gives (and keeps) a marked name to a component this disk cannot hold. */
  localPathFor(syncPath: SyncPath): LocalPath;
  /** The sync path of a local path (a marked name back to its server name, any Unicode form to NFC). */
  syncPathFor(localPath: LocalPath): SyncPath;
  /** The sync name of `localName` inside folder `parent`, when a kept mapping names it; else undefined. */
  mappedSyncName(parent: SyncPath, localName: string): string | undefined;
  /** A scan's findings: each sync path whose local name differs only in Unicode form, with that local name. */
  observe(differentForms: Map<SyncPath, string>): void;
  /** An item (and what is under it) moved from one sync path to another: its names follow. */
  moved(from: SyncPath, to: SyncPath): void;
  /** An item left the tree: its names (and those under it) are forgotten. */
  forget(syncPath: SyncPath): void;
}

const parentOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const join = (parent: string, name: string) => (parent === '' ? name : `${parent}/${name}`);
const isAtOrUnder = (p: string, prefix: string) => p === prefix || p.startsWith(`${prefix}/`);

/** Creates the `name_map` table when missing. */
function migrate(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS name_map (sync_path TEXT PRIMARY KEY, local_name TEXT NOT NULL)');
}

/**
 * The names of one synced folder at `root` on `platform`, its kept mappings in `db` (the
 * pair's journal database).
 */
export function openLocalNames(root: string, db: Database.Database, platform: Platform): LocalNames {
  migrate(db);
  const insert = db.prepare('INSERT OR REPLACE INTO name_map (sync_path, local_name) VALUES (?, ?)');
  const remove = db.prepare("DELETE FROM name_map WHERE sync_path = ? OR substr(sync_path, 1, length(?) + 1) = ? || '/'");
  // Kept mappings: sync path → local name, and (parent sync path, local name) → sync name.
  const kept = new Map<SyncPath, string>();
  const keptBack = new Map<string, string>();
  // Unicode forms the last scan saw, both ways likewise.
  let forms = new Map<SyncPath, string>();
  let formsBack = new Map<string, string>();
  const backKey = (parent: SyncPath, localName: string) => `${parent}\u0000${localName}`;

  const load = () => {
    kept.clear();
    keptBack.clear();
    for (const row of db.prepare('SELECT sync_path, local_name FROM name_map').all() as { sync_path: string; local_name: string }[]) {
      kept.set(row.sync_path, row.local_name);
      keptBack.set(backKey(parentOf(row.sync_path), row.local_name), path.posix.basename(row.sync_path));
    }
  };
  const setForms = (next: Map<SyncPath, string>) => {
    forms = next;
    formsBack = new Map([...next].map(([syncPath, localName]) => [backKey(parentOf(syncPath), localName), path.posix.basename(syncPath)]));
  };
  load();

  /** A marked local name for a server name this disk cannot hold, free among the folder's names. */
  const allocate = (syncPath: SyncPath, localParent: LocalPath): string => {
    const name = path.posix.basename(syncPath);
    const parent = parentOf(syncPath);
    const base = platform === 'win32' ? windowsSafeBase(name) : name;
    const takenKeys = new Set([...kept].filter(([p]) => parentOf(p) === parent).map(([, local]) => nameKey(local)));
    const taken = (candidate: string) => takenKeys.has(nameKey(candidate)) || existsSync(path.join(root, localParent, candidate));
    const localName = firstFreeMarkedName(base, DISK_MARKER, taken, platform);
    insert.run(syncPath, localName);
    load();
    return localName;
  };

  return {
    platform,
    localPathFor(syncPath) {
      if (syncPath === '') return '';
      let local = '';
      let sync = '';
      for (const name of syncPath.split('/')) {
        sync = join(sync, name);
        const localName = kept.get(sync) ?? forms.get(sync) ?? (diskCanHold(name, platform) ? name : allocate(sync, local));
        local = join(local, localName);
      }
      return local;
    },
    syncPathFor(localPath) {
      if (localPath === '') return '';
      let sync = '';
      for (const localName of localPath.split('/')) {
        const key = backKey(sync, localName);
        sync = join(sync, keptBack.get(key) ?? formsBack.get(key) ?? localName.normalize('NFC'));
      }
      return sync;
    },
    mappedSyncName(parent, localName) {
      return keptBack.get(backKey(parent, localName));
    },
    observe(differentForms) {
      setForms(new Map(differentForms));
    },
    moved(from, to) {
      // What is under the item keeps its local names; the item's own name at `to` is
      // whatever localPathFor(to) gave it, so its old mapping goes.
      const under = (p: SyncPath) => p.startsWith(`${from}/`);
      const rekey = <T>(map: Map<SyncPath, T>) =>
        new Map([...map].filter(([p]) => p !== from).map(([p, v]) => [under(p) ? to + p.slice(from.length) : p, v] as const));
      const moving = [...kept].filter(([p]) => under(p));
      db.transaction(() => {
        remove.run(from, from, from);
        for (const [p, localName] of moving) insert.run(to + p.slice(from.length), localName);
      })();
      load();
      setForms(rekey(forms));
    },
    forget(syncPath) {
      remove.run(syncPath, syncPath, syncPath);
      load();
      setForms(new Map([...forms].filter(([p]) => !isAtOrUnder(p, syncPath))));
    },
  };
}
