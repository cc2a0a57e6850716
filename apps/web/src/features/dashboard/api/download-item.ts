import { downloadWithLink } from '../../../lib/download';
import type { DriveItem } from '../items';

/** Saves a file, or a folder as a zip, through a signed download link (lib/download.ts). */
export function downloadItem(item: DriveItem): Promise<void> {
  const id = encodeURIComponent(item.id);
  return downloadWithLink(item.kind === 'folder' ? `/user/folders/${id}/download-link` : `/files/${id}/download-link`);
}
