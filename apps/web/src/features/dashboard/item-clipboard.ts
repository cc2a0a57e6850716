import { useSyncExternalStore } from 'react';
import type { DriveItem } from './items';

/** Items put aside by Ctrl/Cmd+C (copy) or Ctrl/Cmd+X (cut), to be pasted into another folder. */
export interface ClipboardContent {
  mode: 'copy' | 'cut';
  items: DriveItem[];
  /** The folder they were taken from (null: My Files). */
  fromFolderId: string | null;
}

/*
 * The app's own clipboard, not the system's: it holds items of the drive, which no other
 * program could paste, and it outlives the folder's page (each folder mounts its own).
 */
let content: ClipboardContent | null = null;
const listeners = new Set<() => void>();

export const itemClipboard = {
  get: (): ClipboardContent | null => content,
  set(next: ClipboardContent | null): void {
    content = next;
    for (const listener of listeners) listener();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useItemClipboard(): ClipboardContent | null {
  return useSyncExternalStore(itemClipboard.subscribe, itemClipboard.get);
}
