import { downloadWithLink } from '../../../lib/download';

/**
 * Saves a file, or a folder as a zip, from a folder shared with the caller: the same signed
 * download links as the owner's own items (the server lets recipients read them).
 */
export function downloadSharedItem(kind: 'file' | 'folder', id: string): Promise<void> {
  const encoded = encodeURIComponent(id);
  return downloadWithLink(kind === 'folder' ? `/user/folders/${encoded}/download-link` : `/files/${encoded}/download-link`);
}
