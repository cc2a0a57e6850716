import type { ComponentType } from 'react';
import type { UploadConfig } from '@cloudvault/contract/files';

/** What the folder chooser is given: the app passes the file manager's (app/routes); a feature never imports another. */
export interface FolderChooserProps {
  title: string;
  description: string;
  /** The button that picks the folder browsed. */
  pickLabel: string;
  /** Where browsing starts: null for My Files. */
  startFolderId: string | null;
  onClose: () => void;
  /** The folder picked, null for My Files, and its name as shown. */
  onPick: (folderId: string | null, name: string) => void;
}

export type FolderChooserSlot = ComponentType<FolderChooserProps>;

/**
 * Starts uploading `files` into `folderId` the app's usual way (the uploads feature: its
 * queue, resumable for large files, its progress panel and its name-clash questions);
 * resolves once they are queued.
 */
export type StartUploadsSlot = (files: File[], folderId: string | null, config: UploadConfig) => Promise<unknown>;
