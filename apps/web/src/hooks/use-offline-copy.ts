import { useEffect, useSyncExternalStore } from 'react';
import { keepOffline, loadOfflineCopies, offlineCopies, onOfflineCopiesChange, type KeepableFile } from '../lib/offline-files';
import { useOffline } from './use-offline';
import { useSession } from './use-session';

/** Where a file stands on this device: kept (its copy may hold an older version: `stale`), being saved (`saving`, 0 to 1), or neither. */
export interface OfflineCopyState {
  kept: boolean;
  stale: boolean;
  saving: number | null;
}

/**
 * A file's offline copy (lib/offline-files.ts), for its marker and its menu entries. When the
 * listing, read from the server, names newer content than the copy holds, the copy is
 * refreshed at once: a file kept offline is the latest one the user saw online.
 */
export function useOfflineCopy(file: KeepableFile | null): OfflineCopyState {
  const userId = useSession().user?.id;
  useEffect(() => {
    if (userId) loadOfflineCopies(userId);
  }, [userId]);
  const { stored, saving } = useSyncExternalStore(onOfflineCopiesChange, offlineCopies, offlineCopies);
  const offline = useOffline();
  const heldTag = file ? stored.get(file.id) : undefined;
  const stale = file !== null && heldTag !== undefined && heldTag !== file.contentTag;
  const id = file?.id;
  const contentTag = file?.contentTag;
  const mimetype = file?.mimetype;
  useEffect(() => {
    if (!stale || offline || id === undefined || contentTag === undefined || mimetype === undefined) return;
    // A failed refresh keeps the older copy: it is still better than none without a network.
    keepOffline({ id, contentTag, mimetype }).catch((error: unknown) => console.warn('Could not refresh a file kept offline.', error));
  }, [stale, offline, id, contentTag, mimetype]);
  return { kept: heldTag !== undefined, stale, saving: file ? (saving.get(file.id) ?? null) : null };
}
