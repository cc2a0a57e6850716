/**
 * The journal: what both sides last agreed on (the base of the three-way comparison), the
 * issues a person should hear about, the transfers in flight (to resume them) and the last
 * pass's summary. Every change is its own small transaction, written the moment an action
 * completes, so a pass killed at any instruction is replanned from here and both sides.
 */
import type { BaseEntry, Issue, Snapshot, SyncPath } from '../model.ts';
import type { SqliteDatabase } from './open-database.ts';
import { migrateJournal } from './schema.ts';

/** The pair this database belongs to. */
export interface PairRecord {
  localDir: string;
  remotePath: string;
  server: string;
  email: string;
  /** The drive folder's id once known (null: the caller's root). */
  remoteRootId: string | null;
}

/** An upload or download in flight: what resuming it needs. */
export interface TransferRecord {
  path: SyncPath;
  direction: 'upload' | 'download';
  hash: string;
  size: number;
  /** The tus upload's URL (uploads). */
  tusUrl?: string;
  /** The partial file in `.cloudvault/tmp/` (downloads). */
  tmpPath?: string;
  remoteId?: string;
}

/** How the last pass ended, for `cloudvault status`. */
export interface PassSummary {
  finishedAt: string;
  result: 'synced' | 'pending' | 'failed' | 'mass-delete' | 'dry-run';
  message: string;
  /** Actions the final plan still held. */
  pending: number;
  done: number;
}

interface BaseRow {
  path: string;
  kind: 'file' | 'folder';
  remote_id: string;
  size: number;
  hash: string | null;
  mtime_ms: number;
  inode: string;
}

function baseFromRow(row: BaseRow): BaseEntry {
  const entry: BaseEntry = {
    path: row.path,
    kind: row.kind,
    remoteId: row.remote_id,
    size: row.size,
    mtimeMs: row.mtime_ms,
    inode: row.inode,
  };
  if (row.hash !== null) entry.hash = row.hash;
  return entry;
}

/** Escapes LIKE's wildcards so a path is matched as written. */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (char) => `\\${char}`)}/%`;
}

export type Journal = ReturnType<typeof createJournal>;

/** The journal's reads and writes over the pair's database (its tables are created or migrated here). */
export function createJournal(db: SqliteDatabase) {
  migrateJournal(db);
  const statements = {
    allBase: db.prepare<[], BaseRow>('SELECT path, kind, remote_id, size, hash, mtime_ms, inode FROM base'),
    // The expression of the index base_by_folder (schema.ts): a path's folder with its trailing slash, '' at the root.
    baseIn: db.prepare<[string], BaseRow>(
      "SELECT path, kind, remote_id, size, hash, mtime_ms, inode FROM base WHERE rtrim(path, replace(path, '/', '')) = ?",
    ),
    countBase: db.prepare<[], { count: number }>('SELECT count(*) AS count FROM base'),
    putBase: db.prepare(
      `INSERT INTO base (path, kind, remote_id, size, hash, mtime_ms, inode) VALUES (@path, @kind, @remoteId, @size, @hash, @mtimeMs, @inode)
       ON CONFLICT (path) DO UPDATE SET kind = excluded.kind, remote_id = excluded.remote_id, size = excluded.size,
         hash = excluded.hash, mtime_ms = excluded.mtime_ms, inode = excluded.inode`,
    ),
    deleteBase: db.prepare('DELETE FROM base WHERE path = ?'),
    deleteBaseUnder: db.prepare("DELETE FROM base WHERE path LIKE ? ESCAPE '\\'"),
    moveBaseUnder: db.prepare(`UPDATE OR REPLACE base SET path = @to || substr(path, length(@from) + 1) WHERE path LIKE @like ESCAPE '\\'`),
    moveBase: db.prepare('UPDATE OR REPLACE base SET path = @to WHERE path = @from'),
    baseOfItem: db.prepare<[string], { path: string }>('SELECT path FROM base WHERE remote_id = ?'),
    putIssue: db.prepare(
      `INSERT INTO issues (path, kind, message, at) VALUES (@path, @kind, @message, @at)
       ON CONFLICT (path, kind) DO UPDATE SET message = excluded.message, at = excluded.at`,
    ),
    clearIssues: db.prepare('DELETE FROM issues WHERE path = ?'),
    clearIssue: db.prepare('DELETE FROM issues WHERE path = ? AND kind = ?'),
    clearIssueKind: db.prepare('DELETE FROM issues WHERE kind = ?'),
    allIssues: db.prepare<[], Issue>('SELECT path, kind, message, at FROM issues ORDER BY kind, path'),
    getPair: db.prepare<[], { local_dir: string; remote_path: string; server: string; email: string; remote_root_id: string | null }>(
      'SELECT local_dir, remote_path, server, email, remote_root_id FROM pair WHERE id = 1',
    ),
    putPair: db.prepare(
      `INSERT INTO pair (id, local_dir, remote_path, server, email, remote_root_id) VALUES (1, @localDir, @remotePath, @server, @email, @remoteRootId)
       ON CONFLICT (id) DO UPDATE SET local_dir = excluded.local_dir, remote_path = excluded.remote_path, server = excluded.server,
         email = excluded.email, remote_root_id = excluded.remote_root_id`,
    ),
    getTransfer: db.prepare<
      [string],
      {
        path: string;
        direction: 'upload' | 'download';
        hash: string;
        size: number;
        tus_url: string | null;
        tmp_path: string | null;
        remote_id: string | null;
      }
    >('SELECT path, direction, hash, size, tus_url, tmp_path, remote_id FROM transfers WHERE path = ?'),
    putTransfer: db.prepare(
      `INSERT INTO transfers (path, direction, hash, size, tus_url, tmp_path, remote_id) VALUES (@path, @direction, @hash, @size, @tusUrl, @tmpPath, @remoteId)
       ON CONFLICT (path) DO UPDATE SET direction = excluded.direction, hash = excluded.hash, size = excluded.size,
         tus_url = excluded.tus_url, tmp_path = excluded.tmp_path, remote_id = excluded.remote_id`,
    ),
    deleteTransfer: db.prepare('DELETE FROM transfers WHERE path = ?'),
    getLastPass: db.prepare<[], { finished_at: string; result: PassSummary['result']; message: string; pending: number; done: number }>(
      'SELECT finished_at, result, message, pending, done FROM last_pass WHERE id = 1',
    ),
    getSettled: db.prepare<[], { remote_version: string }>('SELECT remote_version FROM settled WHERE id = 1'),
    putSettled: db.prepare(
      'INSERT INTO settled (id, remote_version) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET remote_version = excluded.remote_version',
    ),
    clearSettled: db.prepare('DELETE FROM settled'),
    putLastPass: db.prepare(
      `INSERT INTO last_pass (id, finished_at, result, message, pending, done) VALUES (1, @finishedAt, @result, @message, @pending, @done)
       ON CONFLICT (id) DO UPDATE SET finished_at = excluded.finished_at, result = excluded.result, message = excluded.message,
         pending = excluded.pending, done = excluded.done`,
    ),
  };
  const moveTree = db.transaction((from: string, to: string) => {
    statements.clearSettled.run();
    statements.moveBase.run({ from, to });
    statements.moveBaseUnder.run({ from, to, like: likePrefix(from) });
  });
  const forgetTree = db.transaction((path: string) => {
    statements.clearSettled.run();
    statements.deleteBase.run(path);
    statements.deleteBaseUnder.run(likePrefix(path));
  });

  return {
    /** Every agreed entry, by path. */
    loadBase(): Snapshot<BaseEntry> {
      const base: Snapshot<BaseEntry> = new Map();
      for (const row of statements.allBase.iterate()) base.set(row.path, baseFromRow(row));
      return base;
    },
    /** The agreed entries directly in one folder ('' the root): the walk over an unchanged tree holds one folder's at a time. */
    baseIn(folder: SyncPath): Snapshot<BaseEntry> {
      const entries: Snapshot<BaseEntry> = new Map();
      for (const row of statements.baseIn.iterate(folder === '' ? '' : `${folder}/`)) entries.set(row.path, baseFromRow(row));
      return entries;
    },
    baseCount(): number {
      return statements.countBase.get()?.count ?? 0;
    },
    /** Both sides hold `entry`: it is the base from now on. */
    agree(entry: BaseEntry): void {
      db.transaction(() => {
        statements.clearSettled.run();
        statements.putBase.run({ ...entry, hash: entry.hash ?? null });
      })();
    },
    /**
     * Both sides held exactly the base when the drive was at `remoteVersion` (RemoteState's
     * version). Any change to the base forgets it.
     */
    markSettled(remoteVersion: string): void {
      statements.putSettled.run(remoteVersion);
    },
    /** The drive's version at which both sides last held exactly the base, unless the base changed since. */
    settledAt(): string | undefined {
      return statements.getSettled.get()?.remote_version;
    },
    /** The path (and, for a folder, what is under it) is gone on both sides. */
    forget(path: SyncPath): void {
      forgetTree(path);
    },
    /**
     * A move carried out: the server item `remoteId` and what the journal knows under it now
     * live at `to`. Found by its id, not by the move's `from`: an item moved on both sides
     * comes from where this disk put it, while the journal still knows it where both last
     * agreed (seeds 2 and 457701617 of the randomized test).
     */
    move(remoteId: string, to: SyncPath): void {
      const known = statements.baseOfItem.get(remoteId);
      if (known) moveTree(known.path, to);
    },
    /** Records (or refreshes) an issue; one per path and kind. */
    report(issue: Issue): void {
      statements.putIssue.run(issue);
    },
    /** Forgets the issues of a path: of one kind, or all of them. */
    resolve(path: SyncPath, kind?: Issue['kind']): void {
      if (kind) statements.clearIssue.run(path, kind);
      else statements.clearIssues.run(path);
    },
    /** Forgets every issue of a kind (a pass recomputes them). */
    resolveKind(kind: Issue['kind']): void {
      statements.clearIssueKind.run(kind);
    },
    issues(): Issue[] {
      return statements.allIssues.all();
    },
    pair(): PairRecord | undefined {
      const row = statements.getPair.get();
      if (!row) return undefined;
      return {
        localDir: row.local_dir,
        remotePath: row.remote_path,
        server: row.server,
        email: row.email,
        remoteRootId: row.remote_root_id,
      };
    },
    setPair(pair: PairRecord): void {
      statements.putPair.run(pair);
    },
    transfer(path: SyncPath): TransferRecord | undefined {
      const row = statements.getTransfer.get(path);
      if (!row) return undefined;
      const record: TransferRecord = { path: row.path, direction: row.direction, hash: row.hash, size: row.size };
      if (row.tus_url !== null) record.tusUrl = row.tus_url;
      if (row.tmp_path !== null) record.tmpPath = row.tmp_path;
      if (row.remote_id !== null) record.remoteId = row.remote_id;
      return record;
    },
    startTransfer(record: TransferRecord): void {
      statements.putTransfer.run({ tusUrl: null, tmpPath: null, remoteId: null, ...record });
    },
    endTransfer(path: SyncPath): void {
      statements.deleteTransfer.run(path);
    },
    lastPass(): PassSummary | undefined {
      const row = statements.getLastPass.get();
      if (!row) return undefined;
      return { finishedAt: row.finished_at, result: row.result, message: row.message, pending: row.pending, done: row.done };
    },
    recordPass(summary: PassSummary): void {
      statements.putLastPass.run(summary);
    },
  };
}
