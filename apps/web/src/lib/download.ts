import type { DownloadLinkResponse } from '@cloudvault/contract/files';
import { api } from './api-client';

/**
 * Saves an item to the user's disk through the browser's own download manager.
 *
 * The API authenticates with a header that a plain link cannot send, and fetching the
 * bytes into the page would hold the whole file in memory. So the server is asked for a
 * short-lived signed link (POST …/download-link, docs/decisions/0006) and the browser
 * opens it like any download: streamed to disk, with its progress and resume, on HTTP
 * or HTTPS alike. Rejects with ApiError when the server refuses the link (404, 401…).
 */
export async function downloadWithLink(linkPath: string): Promise<void> {
  const { url } = await api.post<DownloadLinkResponse>(linkPath);
  saveFromUrl(url);
}

/** Hands an address that needs no header (a signed link, a public link) to the browser's download manager. */
export function saveFromUrl(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  // Empty: the server's Content-Disposition names the file.
  link.download = '';
  link.hidden = true;
  document.body.appendChild(link);
  link.click();
  link.remove();
}
