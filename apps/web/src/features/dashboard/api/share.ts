import { api } from '../../../lib/api-client';

/** product.md section 9: file share links expire after 24 hours. */
export const FILE_SHARE_HOURS = 24;

/** POST /api/files/:id/share → a link that expires after 24 hours. */
export function shareFile(id: string): Promise<{ shareUrl: string }> {
  return api.post(`/files/${encodeURIComponent(id)}/share`, { expiresIn: FILE_SHARE_HOURS });
}

export type FolderShareBody = { shareType: 'public' } | { shareType: 'private'; email: string };

/** POST /api/user/folders/:id/share: a public link, or a private share with an e-mail. */
export function shareFolder(id: string, body: FolderShareBody): Promise<{ shareUrl?: string; message?: string }> {
  return api.post(`/user/folders/${encodeURIComponent(id)}/share`, body);
}
