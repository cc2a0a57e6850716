import type { LinkRole, PrivateRole, PrivateShareResponse, ShareFolderBody, ShareLinkResponse } from '@cloudvault/contract/shares';
import { api } from '../../../lib/api-client';

/** docs/product.md#link-rules: file share links expire after 24 hours unless the plan lets the user choose. */
export const FILE_SHARE_HOURS = 24;

/** A link's optional settings (plans with password links, docs/product.md#plans). */
export interface LinkSettings {
  /** Hours until the link stops working. */
  expiresIn?: number;
  password?: string;
  /** (+++) What visitors may do; the server's default is `view`. */
  role?: LinkRole;
  /** (+++) Downloads after which the link answers 410. */
  downloadLimit?: number;
  /** (+++) An upload link's words to its visitors. */
  message?: string;
}

/** POST /api/files/:id/share → a link that expires after 24 hours, or as chosen. */
export function shareFile(id: string, { expiresIn = FILE_SHARE_HOURS, password, ...rest }: LinkSettings = {}): Promise<ShareLinkResponse> {
  return api.post(`/files/${encodeURIComponent(id)}/share`, { expiresIn, ...(password ? { password } : {}), ...rest });
}

/** POST /api/files/:id/share with a person: the file on its own, for that e-mail, as a viewer unless said otherwise. */
export function shareFileWith(id: string, email: string, role?: PrivateRole): Promise<PrivateShareResponse> {
  return api.post(`/files/${encodeURIComponent(id)}/share`, { shareType: 'private', email, ...(role ? { role } : {}) });
}

/** POST /api/user/folders/:id/share: a public link, or a private share with an e-mail. */
export function shareFolder(id: string, body: ShareFolderBody): Promise<ShareLinkResponse | PrivateShareResponse> {
  return api.post(`/user/folders/${encodeURIComponent(id)}/share`, body);
}
