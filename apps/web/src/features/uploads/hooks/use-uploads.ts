import { useSyncExternalStore } from 'react';
import type { UploadEntry } from '../upload-queue';
import { uploadQueue } from '../upload-store';

/** The rows of the upload queue, re-rendering as they change. */
export function useUploadEntries(): readonly UploadEntry[] {
  return useSyncExternalStore(uploadQueue.subscribe, uploadQueue.getSnapshot, uploadQueue.getSnapshot);
}

/** True while a file waits or travels (the upload zone is disabled meanwhile). */
export function useUploading(): boolean {
  return useUploadEntries().some((entry) => entry.status === 'queued' || entry.status === 'uploading');
}
