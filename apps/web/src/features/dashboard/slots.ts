import { createContext, type ComponentType, type ReactNode } from 'react';
import type { FileItem, UploadConfig } from '@cloudvault/contract/files';
import type { PlanId } from '@cloudvault/contract/plans';
import type { DropdownMenuItem } from '../../components/ui/dropdown-menu';
import type { FileViewerProps } from '../../lib/file-source';
import type { DriveItem } from './items';

/*
 * What the file manager shows from other features. The app passes them in (app/routes):
 * a feature never imports another one.
 */

/** Uploading into the open folder. */
export interface UploadsSlot {
  /** The 'Upload Files' dialog. */
  Dialog: ComponentType<{ open: boolean; onClose: () => void; folderId: string | null; folderName: string }>;
  /** Uploads what was dropped on the page; resolves with the number of folders it created. */
  uploadDropped: (dataTransfer: DataTransfer, folderId: string | null, config: UploadConfig) => Promise<number>;
  /** Calls `listener` with each file as its upload lands; returns the unsubscribe. */
  onFileUploaded: (listener: (file: FileItem) => void) => () => void;
  /** Opens the folder chooser and uploads the folder picked with its tree; resolves with the number of folders it created. */
  pickFolder: (folderId: string | null, config: UploadConfig) => Promise<number>;
  /**
   * Asks about each name a target folder holds (the clash dialog, with "Apply to all";
   * docs/decisions/0050-name-clashes.md); resolves with each one's choice, in order.
   */
  resolveNameClashes: (clashes: NameClashQuestion[]) => Promise<Array<'replace' | 'keep-both' | 'skip'>>;
}

/** A name the target folder already holds, as the clash dialog shows it. */
export interface NameClashQuestion {
  name: string;
  folderName: string;
  /** Folders are never replaced: only Keep both or Skip. */
  canReplace: boolean;
}

/** Sharing an item: through `Dialog`, or at once for files the plan gives no link settings. */
export interface SharingSlot {
  sharesThroughDialog: (item: DriveItem, plan: PlanId | undefined) => boolean;
  shareFileAtOnce: (fileId: string) => void;
  Dialog: ComponentType<{ item: DriveItem | null; plan: PlanId | undefined; onClose: () => void }>;
}

/** A file's version history: menu entries, and the dialog they open, handed to `children`. */
export type VersionHistorySlot = ComponentType<{
  file: FileItem;
  children: (history: { menuItems: DropdownMenuItem[]; dialog: ReactNode }) => ReactNode;
}>;

/** The full-screen viewer a file opens in (double click, Enter, a tap on a phone). */
export type ViewerSlot = ComponentType<FileViewerProps>;

/** Stars (`starred` true) or unstars items, every listing showing it at once (features/starred). */
export type StarItems = (input: { items: ReadonlyArray<{ kind: 'file' | 'folder'; id: string }>; starred: boolean }) => void;

/** Starring, given around the page by the app (app/routes); null leaves Star out of the menus and the selection bar. */
export const StarringContext = createContext<StarItems | null>(null);

/**
 * (+++) A folder shared with the user as an editor, open in the file manager: its top is the
 * shared folder, not My Files. Moves and copies stay under it, its crumbs lead back to Shared
 * with me, and what only an owner may do (share, star, version history, search of their own
 * drive) is not offered. null (the default): the user's own drive.
 */
export interface DriveScope {
  /** The shared folder: the top of what the file manager reaches. */
  rootId: string;
  /** The first crumb, before the shared folder (Shared with me), and where it leads. */
  topName: string;
  /** Where a folder of the share opens (null: the top crumb's page). */
  folderHref: (folderId: string | null) => string;
}

export const DriveScopeContext = createContext<DriveScope | null>(null);
