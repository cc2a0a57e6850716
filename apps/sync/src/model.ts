/**
 * The shapes every part of the sync client speaks: the scanner (local/), the server's side
 * (remote/), the journal (journal/) and the three-way planner (reconcile/), which the engine
 * (engine/) puts together. See docs/decisions/0062-sync-client.md.
 *
 * Paths are sync paths: relative to the synced pair's root, `/`-separated, in the server's
 * composed form (NFC), without a leading or trailing slash (`Photos/2026/beach.jpg`); the
 * root itself is ''. A local name that differs from its sync name (a name the disk cannot
 * hold, or one renamed to keep two names apart) is translated by local/names.ts before the
 * planner sees it.
 */
export type SyncPath = string;

export type EntryKind = 'file' | 'folder';

/** What is on disk at a path, as the last scan saw it. */
export interface LocalEntry {
  path: SyncPath;
  kind: EntryKind;
  /** Bytes; 0 for folders. */
  size: number;
  mtimeMs: number;
  /** `dev:ino`: what makes a rename on disk recognisable as a move. */
  inode: string;
  /** Lowercase hex SHA-256 of the content (files; taken from the journal while size, mtime and inode are unchanged). */
  hash?: string;
}

/** A share's role as the caller holds it; `owner` for the caller's own tree. */
export type Role = 'owner' | 'editor' | 'viewer';

/** What the drive holds at a path, as the remote mirror (tree listing + change feed) knows it. */
export interface RemoteEntry {
  path: SyncPath;
  kind: EntryKind;
  /** The server's id: kept across renames and moves. */
  id: string;
  size: number;
  /** Lowercase hex SHA-256 (files). */
  hash?: string;
  /** Whose rules apply: a viewer's share takes no uploads. */
  role: Role;
}

/** One path both sides agreed on at the end of the last pass: the base of the three-way comparison. */
export interface BaseEntry {
  path: SyncPath;
  kind: EntryKind;
  remoteId: string;
  size: number;
  /** Files: the content both sides held. */
  hash?: string;
  /** The local file's mtime and inode when it was agreed on: unchanged, its hash is not read again. */
  mtimeMs: number;
  inode: string;
}

export type Snapshot<T> = Map<SyncPath, T>;

/**
 * One step of a pass. The planner only decides; the engine carries steps out in order
 * (a folder before what goes in it, moves before uploads, deletions last) and records each
 * in the journal as it completes, so a pass killed at any step is redone without loss.
 */
export type Action =
  /** A local file's content goes to the server: new there (`remoteId` absent) or new content for `remoteId`. */
  | { type: 'upload'; path: SyncPath; size: number; hash: string; remoteId?: string }
  /** The server's file comes to disk at `path` (new, or replacing what the journal knew). */
  | { type: 'download'; path: SyncPath; remoteId: string; size: number; hash: string }
  /** Content one side needs that the other side already holds under another path: copied, not transferred. */
  | { type: 'copyRemote'; path: SyncPath; fromRemoteId: string; size: number; hash: string }
  | { type: 'copyLocal'; path: SyncPath; from: SyncPath; remoteId: string; size: number; hash: string }
  | { type: 'mkdirRemote'; path: SyncPath }
  | { type: 'mkdirLocal'; path: SyncPath; remoteId: string }
  /** A rename or move made on disk, carried to the server as a move of `remoteId`. */
  | { type: 'moveRemote'; from: SyncPath; to: SyncPath; kind: EntryKind; remoteId: string }
  /**
   * A rename or move made on the server, carried to disk. `throughTemporaryName`: a case-only
   * rename on a disk that compares names case-insensitively, done in two renames.
   */
  | { type: 'moveLocal'; from: SyncPath; to: SyncPath; kind: EntryKind; remoteId: string; throughTemporaryName?: boolean }
  /** Deleted on disk: the server's item goes to its Trash. */
  | { type: 'deleteRemote'; path: SyncPath; kind: EntryKind; remoteId: string }
  /** Deleted on the server: the local item goes to the local trash folder. */
  | { type: 'deleteLocal'; path: SyncPath; kind: EntryKind }
  /**
   * Both sides changed the file differently: the local content is renamed to `copyPath`
   * (`NAME (conflicted copy DEVICE YYYY-MM-DD HHMMSS).EXT`) and uploaded there, and the
   * server's content comes down to `path`. `size` and `hash` are the server's content's,
   * `copySize` and `copyHash` the local content's (what goes up to `copyPath`).
   */
  | {
      type: 'conflict';
      path: SyncPath;
      copyPath: SyncPath;
      remoteId: string;
      size: number;
      hash: string;
      copySize: number;
      copyHash: string;
    }
  /** Both sides hold the same thing and the journal did not know it (or knew it otherwise). */
  | { type: 'agree'; entry: BaseEntry }
  /** Gone on both sides: the journal forgets it. */
  | { type: 'forget'; path: SyncPath }
  /** A local change under a viewer's share: not uploaded, kept, reported. */
  | { type: 'readOnly'; path: SyncPath; reason: string };

/** Something a person should hear about (`cloudvault status`, the log), kept in the journal until resolved. */
export interface Issue {
  path: SyncPath;
  kind: 'conflict' | 'read-only' | 'name' | 'failing' | 'skipped';
  message: string;
  at: string;
}
