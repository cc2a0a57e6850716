import { useOfflineCopy } from '../../../hooks/use-offline-copy';
import { canKeepOffline } from '../../../lib/offline-files';
import type { DriveItem } from '../items';

/** What an item's menu offers of its copy on this device: a file's, where the device can keep one (item-menu.ts `offline`). */
export function useOfflineEntry(item: DriveItem | null): 'kept' | 'not-kept' | undefined {
  const file = item?.kind === 'file' ? item.file : null;
  const { kept } = useOfflineCopy(file);
  if (!file || !canKeepOffline()) return undefined;
  return kept ? 'kept' : 'not-kept';
}
