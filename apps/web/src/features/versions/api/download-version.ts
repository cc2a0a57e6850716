import { downloadWithLink } from '../../../lib/download';

/** Saves an earlier version through a signed download link (lib/download.ts), never through memory. */
export function downloadVersion(fileId: string, versionId: string): Promise<void> {
  return downloadWithLink(`/files/${encodeURIComponent(fileId)}/versions/${encodeURIComponent(versionId)}/download-link`);
}
