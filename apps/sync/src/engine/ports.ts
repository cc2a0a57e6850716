/**
 * What the engine needs of each side, as narrow types: the disk (local/), the drive
 * (remote/) and the journal. engine/wiring.ts builds them from the real parts; tests pass
 * fakes of a few lines.
 */
import type { BaseEntry, EntryKind, Issue, LocalEntry, RemoteEntry, Snapshot, SyncPath } from '../model.ts';

/** What a scan found, ready to plan on. */
export interface LocalScanResult {
  entries: Snapshot<LocalEntry>;
  issues: Issue[];
  /** Files changed too recently to be finished: shown as last agreed, looked at again shortly. */
  unsettled: SyncPath[];
}

/** The disk side of a pass, in sync paths (translation to local names is local/'s business). */
export interface LocalSide {
  /** Scans the tree; hashes are taken from `base` while size, mtime and inode are unchanged. */
  scan(base: Snapshot<BaseEntry>): Promise<LocalScanResult>;
  /**
   * Whether the disk holds exactly what the journal agreed on (`agreed.in` each folder, `count`
   * items in all), walked a folder at a time without keeping what it sees: false at the first
   * difference, and for anything a scan would report or rename, which a full scan then deals with.
   */
  matchesJournal(agreed: { in(folder: SyncPath): Snapshot<BaseEntry>; count: number }): Promise<boolean>;
  /** What is at `path` now (to record after a change), or undefined. */
  stat(path: SyncPath): Promise<LocalEntry | undefined>;
  mkdir(path: SyncPath): Promise<void>;
  /** Renames on disk; refuses (throws) when `to` exists. */
  move(from: SyncPath, to: SyncPath): Promise<void>;
  /** Moves the item into the local trash folder. */
  trash(path: SyncPath): Promise<void>;
  /**
   * Copies a local file's content (`hash`) to another path, content the disk already holds;
   * refuses (throws) when the source no longer holds it or `to` holds other than the scan
   * found there (`expected`): an edit made there since the scan is never overwritten.
   */
  copy(from: SyncPath, to: SyncPath, check: { hash: string; expected: LocalEntry | undefined }): Promise<void>;
}

/** One file to upload: the local content at `path`, into the drive folder `folderId` under `name`. */
export interface UploadItem {
  path: SyncPath;
  folderId: string | null;
  name: string;
  size: number;
  hash: string;
  /** New content for this server file (replaces it, keeping a version). */
  remoteId?: string;
}

/** One file to download to `path`: checked against `hash` before it is put in place. */
export interface DownloadItem {
  path: SyncPath;
  /**
   * What the scan found at the path, as the planner saw it (an edit too young to plan on shows
   * as last agreed): anything else there now is not replaced.
   */
  expected?: LocalEntry;
  remoteId: string;
  size: number;
  hash: string;
}

/** The result of one transfer: the server file's id, or why it failed. */
export type TransferResult = { id: string } | { error: string };

/** The mirror once brought up to date. */
export interface RemoteState {
  /**
   * Where the mirror stands (its remote root and feed position): the same version means the
   * same tree, so a pass that found the disk as the journal left it need not read it.
   * Absent when unknown (a drive folder still to be made).
   */
  version?: string;
  /** The tree as the mirror holds it, by sync path (built on each call). */
  snapshot(): Snapshot<RemoteEntry>;
}

/** The drive side of a pass. */
export interface RemoteSide {
  /** The drive folder the pair syncs (null: the caller's root). */
  rootId(): Promise<string | null>;
  /** Brings the mirror up to date (change feed, or a listing); its tree is then read from the answer. */
  refresh(): Promise<RemoteState>;
  mkdir(parentId: string | null, name: string): Promise<string>;
  move(kind: EntryKind, id: string, target: { name?: string; parentId?: string | null }): Promise<void>;
  delete(kind: EntryKind, id: string): Promise<void>;
  copy(id: string, folderId: string | null, name: string): Promise<{ id: string }>;
  /** Uploads files, small ones batched; one result per item, in order. */
  upload(items: UploadItem[]): Promise<TransferResult[]>;
  /** Downloads files to their paths (temp file, hash checked, renamed into place); one result per item. */
  download(items: DownloadItem[]): Promise<TransferResult[]>;
}

export type { Journal } from '../journal/journal.ts';
