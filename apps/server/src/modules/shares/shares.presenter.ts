import type { Settings } from '@cloudvault/contract/settings';
import type { LinkRole, PrivateRole, PublicShare, Share, SharedFile, SharedFolder, ShareOwner } from '@cloudvault/contract/shares';
import { formatBytes } from '@cloudvault/contract/format';
import type { FilesTable, FoldersTable } from '../../db/schema.ts';
import { contentTagOf, previewOf } from '../../lib/content-types.ts';
import { presentFile } from '../files/files.presenter.ts';
import type { ListedShare } from './shares.repository.ts';

/** A private share's role as stored; rows written before roles are viewers (migration 31). */
export const privateRoleOf = (row: { role?: string }): PrivateRole => (row.role === 'editor' ? 'editor' : 'viewer');

/** A link's role as stored; links made before roles are `view`. */
export function linkRoleOf(row: { role?: string }): LinkRole {
  const role = row.role;
  return role === 'view-only' || role === 'upload' || role === 'edit' ? role : 'view';
}

/** Who is looking at the owner's name: a visitor of a link, or the person a folder was shared with. */
export type ShareAudience = 'link' | 'private';

type ProfileVisibility = Settings['privacy']['profileVisibility'];

/** docs/product.md#link-rules: private shows the first name only; public shows the full name on links too; friends to recipients only. */
export function presentOwner(
  owner: { first_name: string; last_name: string },
  visibility: ProfileVisibility,
  audience: ShareAudience,
): ShareOwner {
  const full = visibility === 'public' || (visibility === 'friends' && audience === 'private');
  return full ? { firstName: owner.first_name, lastName: owner.last_name } : { firstName: owner.first_name };
}

/** The owner's view of one share: a link shows its address, a private share its recipient; download counts only if the owner turned analytics on. */
function presentShare(row: ListedShare, reach: { shareUrl: string } | { email: string }, showCounts: boolean): Share {
  return {
    id: row.id,
    kind: row.kind,
    itemType: row.file_id ? 'file' : 'folder',
    itemId: (row.file_id ?? row.folder_id) as string,
    name: row.item_name,
    ...reach,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    passwordProtected: row.password_hash !== null,
    ...(showCounts ? { downloadCount: Number(row.download_count) } : {}),
    role: row.kind === 'private' ? privateRoleOf(row) : linkRoleOf(row),
    downloadLimit: row.download_limit ?? null,
    uploadCount: Number(row.upload_count ?? 0),
    ...(row.kind === 'private' ? { mayReshare: row.may_reshare === 1 } : {}),
    ...(row.message ? { message: row.message } : {}),
  };
}

export function presentLinkShare(row: ListedShare, shareUrl: string, showCounts: boolean): Share {
  return presentShare(row, { shareUrl }, showCounts);
}

export function presentPrivateShare(row: ListedShare, showCounts: boolean): Share {
  return presentShare(row, { email: row.email as string }, showCounts);
}

/** What a link says of itself to its visitors: its expiry and role. */
type LinkSettings = Pick<ListedShare, 'expires_at' | 'role' | 'message'>;

/** What a visitor of a file link sees before downloading (or, view-only, viewing). */
export function presentLinkedFile(file: FilesTable, link: LinkSettings, owner: ShareOwner): PublicShare {
  const size = Number(file.size);
  return {
    type: 'file',
    name: file.name,
    size,
    sizeFormatted: formatBytes(size),
    mimetype: file.mimetype,
    preview: previewOf(file.mimetype),
    contentTag: contentTagOf(file.sha256),
    expiresAt: link.expires_at,
    owner,
    role: linkRoleOf(link),
  };
}

/**
 * What a visitor of a folder link sees: the folder's id is the root of its items. A link
 * that takes files adds the owner's message and the largest file the owner's plan takes
 * (`maxFileSize`, null: no limit); an upload link shows no folder id, as nothing in it is listed.
 */
export function presentLinkedFolder(folder: FoldersTable, link: LinkSettings, owner: ShareOwner, maxFileSize: number | null): PublicShare {
  const role = linkRoleOf(link);
  return {
    type: 'folder',
    name: folder.name,
    expiresAt: link.expires_at,
    owner,
    ...(role === 'upload' ? {} : { folderId: folder.id }),
    role,
    ...((role === 'upload' || role === 'edit') && link.message ? { message: link.message } : {}),
    ...(maxFileSize !== null ? { maxFileSize } : {}),
  };
}

/** A breadcrumb from the shared folder down: the shared folder has no parent, so none of the owner's folders above it shows. */
export function presentSharedPath(path: FoldersTable[]): Array<{ id: string; name: string; parentId: string | null }> {
  return path.map((folder, index) => ({ id: folder.id, name: folder.name, parentId: index === 0 ? null : folder.parent_id }));
}

/** A folder in the recipient's "Shared with me", shown at the top of their view: no parent of the owner's is revealed. */
export function presentFolderSharedWithMe(
  row: { id: string; name: string; created_at: string; updated_at: string; share_id: string; share_role?: string; may_reshare?: number },
  owner: ShareOwner,
): SharedFolder {
  return {
    id: row.id,
    name: row.name,
    parentId: null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    shareId: row.share_id,
    owner,
    role: privateRoleOf({ role: row.share_role }),
    mayReshare: row.may_reshare === 1,
  };
}

/** A file shared on its own, as its recipient sees it: not where it lives in the owner's drive. */
export function presentFileSharedWithMe(
  row: Parameters<typeof presentFile>[0] & { share_id: string; share_role?: string; may_reshare?: number },
  owner: ShareOwner,
): SharedFile {
  return {
    ...presentFile(row),
    folderId: null,
    shareId: row.share_id,
    owner,
    role: privateRoleOf({ role: row.share_role }),
    mayReshare: row.may_reshare === 1,
  };
}
