import type { FileItem } from '@cloudvault/contract/files';
import { notify } from '../../../lib/notify';
import { DeviceFullError, keepOffline, offlineCopies, onOfflineCopiesChange, removeOfflineCopy } from '../../../lib/offline-files';

/** How often the saving toast's share moves (and is read out): every tenth, not every percent. */
const PROGRESS_STEP = 10;
/**
 * How long the toast saying the download ended stays: given, because the progress toast it
 * replaces (the same toast, updated in place) had no end and would pass that on.
 */
const OUTCOME_MS = 5000;

/**
 * "Make available offline": the file's bytes stored on the device (lib/offline-files.ts),
 * with one toast that says how far the download is, then that it is done or why it failed.
 */
export function saveOfflineCopy(file: Pick<FileItem, 'id' | 'contentTag' | 'mimetype' | 'originalName'>): void {
  const group = `offline-copy:${file.id}`;
  const name = file.originalName;
  let shown = -1;
  const progress = () => {
    const done = offlineCopies().saving.get(file.id);
    if (done === undefined) return;
    const percent = Math.floor((done * 100) / PROGRESS_STEP) * PROGRESS_STEP;
    if (percent === shown) return;
    shown = percent;
    // Up until the download ends, however long it takes: the next toast of the group replaces it.
    notify.info('offlineFiles.saving', { values: { name, percent }, group, once: true, duration: Infinity });
  };
  const stop = onOfflineCopiesChange(progress);
  keepOffline(file)
    .then(
      () => notify.success('offlineFiles.saved', { values: { name }, group, once: true, duration: OUTCOME_MS }),
      (error: unknown) => {
        if (!(error instanceof DeviceFullError)) console.warn('Could not keep a file offline.', error);
        notify.error(error instanceof DeviceFullError ? 'offlineFiles.deviceFull' : 'offlineFiles.failed', {
          values: { name },
          group,
          once: true,
          duration: OUTCOME_MS,
        });
      },
    )
    .finally(stop);
}

/** "Remove offline copy". */
export function dropOfflineCopy(file: Pick<FileItem, 'id' | 'originalName'>): void {
  const values = { name: file.originalName };
  removeOfflineCopy(file.id).then(
    () => notify.success('offlineFiles.removed', { values }),
    () => notify.error('offlineFiles.removeFailed', { values }),
  );
}
