import type { Settings } from '@cloudvault/contract/settings';
import type { PublicItemsResponse, PublicShare } from '@cloudvault/contract/shares';
import type { FilesTable, FoldersTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { countAttempts, type FailureLimiter } from '../../lib/failure-limiter.ts';
import type { FilesService } from '../files/files.service.ts';
import { presentFile } from '../files/files.presenter.ts';
import type { FoldersService } from '../folders/folders.service.ts';
import { presentFolder } from '../folders/folders.presenter.ts';
import type { PlanEntry } from '../plans/plans.catalogue.ts';
import { downloadLimitReached, type LinkUse, receivesFiles, requireLinkUse } from './link-policy.ts';
import { ownerAsShownBy, SHARE_NOT_FOUND, type ShareUser } from './share-owners.ts';
import type { ShareTokens } from './share-tokens.ts';
import { linkRoleOf, presentLinkedFile, presentLinkedFolder, presentSharedPath } from './shares.presenter.ts';
import type { ShareRow, SharesRepository } from './shares.repository.ts';

export interface PublicLinksDeps {
  shares: Pick<SharesRepository, 'findByTokenHash' | 'countDownload'>;
  files: Pick<FilesService, 'findLive' | 'listLive'>;
  folders: Pick<FoldersService, 'findLive' | 'listLive' | 'pathTo'>;
  users: { byId(id: string): Promise<ShareUser | undefined> };
  /** False while the owner is suspended: their links and private shares answer 404 (docs/decisions/0029-operator-console.md). */
  ownerActive(userId: string): Promise<boolean>;
  settingsOf(userId: string): Promise<Settings>;
  /** The owner's plan: the largest file an upload or edit link takes. */
  planOf(userId: string): Promise<Pick<PlanEntry, 'maxFileSize'>>;
  passwords: { verify(hash: string, password: string): Promise<boolean> };
  tokens: Pick<ShareTokens, 'hash' | 'hasAccess' | 'grantAccess'>;
  /** Wrong share passwords, per link and IP (docs/api.md#rate-limits: 10 in 15 minutes). */
  passwordFailures: FailureLimiter;
  /** Wrong share passwords per link from all addresses together (docs/api.md#rate-limits: 100 in 15 minutes). */
  passwordFailuresPerLink: FailureLimiter;
  /** Downloads per share per day, for analytics. */
  countDailyDownload(shareId: string): Promise<void>;
  clock: Clock;
}

/** What a public link opens, after every check: the owner and the live item. */
export type ResolvedShare =
  | { share: ShareRow; ownerId: string; type: 'file'; file: FilesTable }
  | { share: ShareRow; ownerId: string; type: 'folder'; folder: FoldersTable };

/**
 * Visitors of a link, without an account: the token is the permission, and it reaches its
 * item and, for a folder, what is inside it, never anything else. Revoked or unknown is 404,
 * expired 410, a protected link 401 until unlocked.
 */
export function createPublicLinksService(deps: PublicLinksDeps) {
  const { shares, files, folders, tokens } = deps;
  const ownerAsShown = ownerAsShownBy(deps);

  /**
   * The share behind a token, with its live item; 404, 410 (expired, or its download limit
   * reached) or 401 (password) otherwise. Given a use, the link's role must allow it (403).
   */
  async function resolve(token: string, accessToken: string | undefined, use?: LinkUse): Promise<ResolvedShare> {
    const share = await shares.findByTokenHash(tokens.hash(token));
    if (!share || share.kind !== 'link' || !(await deps.ownerActive(share.user_id))) throw notFound(SHARE_NOT_FOUND, 'SHARE_NOT_FOUND');
    if (share.expires_at !== null && share.expires_at <= deps.clock.now().toISOString())
      throw new AppError(410, 'SHARE_EXPIRED', 'This link has expired. Ask the owner for a new one.');
    // Read from the row on every request, so a limit lowered by the owner closes the link at once on every node.
    if (share.download_limit != null && Number(share.download_count) >= share.download_limit) throw downloadLimitReached();
    let resolved: ResolvedShare | undefined;
    if (share.file_id) {
      const file = await files.findLive(share.user_id, share.file_id);
      if (file) resolved = { share, ownerId: share.user_id, type: 'file', file };
    } else if (share.folder_id) {
      const folder = await folders.findLive(share.user_id, share.folder_id);
      if (folder) resolved = { share, ownerId: share.user_id, type: 'folder', folder };
    }
    if (!resolved) throw notFound(SHARE_NOT_FOUND, 'SHARE_NOT_FOUND');
    if (share.password_hash !== null && !(await tokens.hasAccess(share.id, accessToken, share.password_hash))) {
      throw new AppError(401, 'SHARE_PASSWORD_REQUIRED', 'This link is protected by a password.', { passwordRequired: true });
    }
    if (use) requireLinkUse(linkRoleOf(share), use);
    return resolved;
  }

  /** A folder inside a shared folder, with the breadcrumb path from the shared folder down; 404 outside it. */
  async function insideSharedFolder(ownerId: string, rootId: string, folderId: string): Promise<FoldersTable[]> {
    const path = await folders.pathTo(ownerId, folderId);
    const rootIndex = path.findIndex((folder) => folder.id === rootId);
    if (rootIndex === -1) throw notFound('Folder not found', 'FOLDER_NOT_FOUND');
    return path.slice(rootIndex);
  }

  return {
    resolve,

    async describe(token: string, accessToken: string | undefined): Promise<PublicShare> {
      const resolved = await resolve(token, accessToken);
      const owner = await ownerAsShown(resolved.ownerId, 'link');
      if (resolved.type === 'file') return presentLinkedFile(resolved.file, resolved.share, owner);
      // A page that takes files says how large one may be before the visitor picks it.
      const maxFileSize = receivesFiles(linkRoleOf(resolved.share)) ? (await deps.planOf(resolved.ownerId)).maxFileSize : null;
      return presentLinkedFolder(resolved.folder, resolved.share, owner, maxFileSize);
    },

    /** The contents of the shared folder, or of a folder inside it (any depth). */
    async items(token: string, accessToken: string | undefined, folderId: string | undefined): Promise<PublicItemsResponse> {
      const resolved = await resolve(token, accessToken, 'browse');
      if (resolved.type !== 'folder') throw notFound('This link is for a file, not a folder.', 'NOT_A_FOLDER');
      const path = await insideSharedFolder(resolved.ownerId, resolved.folder.id, folderId ?? resolved.folder.id);
      const listed = path[path.length - 1] as FoldersTable;
      const [childFolders, childFiles] = await Promise.all([
        folders.listLive(resolved.ownerId, listed.id),
        files.listLive(resolved.ownerId, listed.id),
      ]);
      return { folders: childFolders.map(presentFolder), files: childFiles.map(presentFile), path: presentSharedPath(path) };
    },

    /** A file inside a shared folder (any depth), or 404; an upload link reaches none (403). */
    async fileInFolderShare(resolved: ResolvedShare, fileId: string): Promise<FilesTable> {
      requireLinkUse(linkRoleOf(resolved.share), 'browse');
      if (resolved.type !== 'folder') throw notFound('File not found', 'FILE_NOT_FOUND');
      const file = await files.findLive(resolved.ownerId, fileId);
      if (!file || file.folder_id === null) throw notFound('File not found', 'FILE_NOT_FOUND');
      await insideSharedFolder(resolved.ownerId, resolved.folder.id, file.folder_id);
      return file;
    },

    /** Counts a download before its body is sent; at the link's limit it is refused with 410, on whichever node asks. */
    async countDownload(share: ShareRow): Promise<void> {
      if (!(await shares.countDownload(share.id))) throw downloadLimitReached();
      await deps.countDailyDownload(share.id);
    },

    /** The right password buys a pass to the link for an hour (share-tokens.ts); wrong ones are limited per link and per address. */
    async unlock(token: string, password: string, ip: string): Promise<{ accessToken: string; expiresAt: string }> {
      const share = await shares.findByTokenHash(tokens.hash(token));
      if (!share || share.kind !== 'link' || share.password_hash === null) throw notFound(SHARE_NOT_FOUND, 'SHARE_NOT_FOUND');
      const key = `${share.id}:${ip}`;
      // Counted before the check, so parallel guesses cannot outrun the limit; the link's own
      // window first, so a link under attack gets no window per address that tries it.
      await countAttempts([deps.passwordFailuresPerLink, share.id], [deps.passwordFailures, key]);
      if (!(await deps.passwords.verify(share.password_hash, password)))
        throw new AppError(401, 'WRONG_SHARE_PASSWORD', 'That password is not right.', { passwordRequired: true });
      await Promise.all([deps.passwordFailures.forgive(key), deps.passwordFailuresPerLink.forgive(share.id)]);
      return tokens.grantAccess(share.id, share.password_hash);
    },
  };
}
