import type { Language, Settings } from '@cloudvault/contract/settings';
import {
  DEFAULT_LINK_HOURS,
  type PublicItemsResponse,
  type PublicShare,
  type Share,
  type ShareFolderBody,
  type ShareLinkResponse,
  type ShareOwner,
  type SharedFolder,
} from '@cloudvault/contract/shares';
import { formatBytes } from '@cloudvault/contract/format';
import { isValidEmail, normalizeEmail } from '@cloudvault/contract/validation';
import type { MailMessage } from '../../adapters/mail/mailer.ts';
import { inPages } from '../../db/pages.ts';
import type { FilesTable, FoldersTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { contentTagOf, previewOf } from '../../lib/content-types.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { countAttempts, type FailureLimiter } from '../../lib/failure-limiter.ts';
import { newId } from '../../lib/ids.ts';
import type { FilesService } from '../files/files.service.ts';
import { presentFile } from '../files/files.presenter.ts';
import type { FoldersService } from '../folders/folders.service.ts';
import { presentFolder } from '../folders/folders.presenter.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { PlanEntry } from '../plans/plans.catalogue.ts';
import type { ShareTokens } from './share-tokens.ts';
import type { ListedShare, ShareRow, SharesRepository } from './shares.repository.ts';
import { folderSharedMail } from './share-mail.ts';

const HOUR = 60 * 60 * 1000;
const SHARE_NOT_FOUND = 'This link does not exist or was revoked.';
/** Shares per query of the owner's listing. */
const LIST_PAGE = 500;

interface UserInfo {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  email_verified_at: string | null;
}

export interface SharesServiceDeps {
  shares: SharesRepository;
  files: Pick<FilesService, 'findLive' | 'listLive'>;
  folders: Pick<FoldersService, 'findLive' | 'listLive' | 'pathTo'>;
  users: { byId(id: string): Promise<UserInfo | undefined>; byEmail(email: string): Promise<UserInfo | undefined> };
  /** False while the owner is suspended: their links and private shares answer 404 (docs/decisions/0029-operator-console.md). */
  ownerActive(userId: string): Promise<boolean>;
  settingsOf(userId: string): Promise<Settings>;
  planOf(userId: string): Promise<PlanEntry>;
  passwords: { hash(password: string): Promise<string>; verify(hash: string, password: string): Promise<boolean> };
  tokens: ShareTokens;
  /** Wrong share passwords, per link and IP (docs/api.md#rate-limits: 10 in 15 minutes). */
  passwordFailures: FailureLimiter;
  /** Wrong share passwords per link from all addresses together (docs/api.md#rate-limits: 100 in 15 minutes). */
  passwordFailuresPerLink: FailureLimiter;
  /**
   * New private shares per owner (20 an hour): each one mails someone, so without a limit
   * an account is a spam relay. Every share counts as one event of the limiter.
   */
  invitationsPerOwner: FailureLimiter;
  /** An invitation to an e-mail with no account yet. */
  sendMail(message: MailMessage): Promise<void>;
  /** A user is told as their notification settings say (e-mail, the header bell). */
  notifyUser(
    userId: string,
    event: { type: 'folder_shared'; details: Record<string, string>; mail: (language: Language) => MailMessage },
  ): Promise<void>;
  activity: Pick<ActivityService, 'record'>;
  /** Downloads per share per day, for analytics. */
  countDailyDownload(shareId: string): Promise<void>;
  clock: Clock;
  publicUrl: string;
}

/** What a public link opens, after every check: the owner and the live item. */
export type ResolvedShare =
  | { share: ShareRow; ownerId: string; type: 'file'; file: FilesTable }
  | { share: ShareRow; ownerId: string; type: 'folder'; folder: FoldersTable };

/**
 * Links (a file, or a folder publicly) and private folder shares by e-mail. A link reaches
 * its item and, for a folder, what is inside it, never anything else; revoked or unknown
 * is 404, expired 410, a protected link 401 until unlocked.
 */
export function createSharesService(deps: SharesServiceDeps) {
  const { shares, files, folders, tokens, clock } = deps;
  const now = () => clock.now().toISOString();
  const shareUrlOf = (shareId: string) => `${deps.publicUrl}/s/${tokens.tokenFor(shareId)}`;

  /** docs/product.md#link-rules: private shows the first name only; public shows the full name on links too. */
  async function ownerAsShown(ownerId: string, audience: 'link' | 'private'): Promise<ShareOwner> {
    const owner = await deps.users.byId(ownerId);
    if (!owner) throw notFound(SHARE_NOT_FOUND, 'SHARE_NOT_FOUND');
    const visibility = (await deps.settingsOf(ownerId)).privacy.profileVisibility;
    const full = visibility === 'public' || (visibility === 'friends' && audience === 'private');
    return full ? { firstName: owner.first_name, lastName: owner.last_name } : { firstName: owner.first_name };
  }

  /** Checks a link's settings against the plan; answers the plan's longest lifetime in hours. */
  async function linkLimits(userId: string, expiresIn: number | undefined, password: string | undefined): Promise<number> {
    const plan = await deps.planOf(userId);
    const maxHours = plan.capabilities.maxShareExpiryHours;
    if (expiresIn !== undefined && expiresIn > maxHours) {
      throw badRequest(`Links on the ${plan.name} plan last at most ${maxHours} hours.`, 'EXPIRY_TOO_LONG');
    }
    if (password !== undefined && !plan.capabilities.passwordProtectedLinks) {
      throw badRequest(`Password-protected links are not part of the ${plan.name} plan.`, 'PASSWORD_LINKS_NOT_IN_PLAN');
    }
    return maxHours;
  }

  async function createLink(
    userId: string,
    item: { file_id: string | null; folder_id: string | null },
    expiresIn: number,
    password: string | undefined,
  ): Promise<ShareLinkResponse> {
    const id = newId();
    const createdAt = clock.now();
    const expiresAt = new Date(createdAt.getTime() + expiresIn * HOUR).toISOString();
    await shares.insert({
      id,
      user_id: userId,
      kind: 'link',
      ...item,
      token_hash: tokens.hash(tokens.tokenFor(id)),
      email: null,
      password_hash: password === undefined ? null : await deps.passwords.hash(password),
      expires_at: expiresAt,
      revoked_at: null,
      download_count: 0,
      created_at: createdAt.toISOString(),
    });
    await deps.activity.record(userId, 'share', { kind: 'link', item: item.file_id ? 'file' : 'folder' });
    return { shareUrl: shareUrlOf(id), shareId: id, expiresAt };
  }

  function presentShare(row: ListedShare, showCounts: boolean): Share {
    return {
      id: row.id,
      kind: row.kind,
      itemType: row.file_id ? 'file' : 'folder',
      itemId: (row.file_id ?? row.folder_id) as string,
      name: row.item_name,
      ...(row.kind === 'link' ? { shareUrl: shareUrlOf(row.id) } : { email: row.email as string }),
      expiresAt: row.expires_at,
      createdAt: row.created_at,
      passwordProtected: row.password_hash !== null,
      ...(showCounts ? { downloadCount: Number(row.download_count) } : {}),
    };
  }

  /** A recipient with an account is notified per their settings; an e-mail with none yet gets an invitation. */
  async function notifyRecipient(ownerId: string, email: string, folderName: string) {
    const recipient = await deps.users.byEmail(email);
    const owner = await ownerAsShown(ownerId, 'private');
    const mail = (language: Language) =>
      folderSharedMail({ to: email, owner, folderName, publicUrl: deps.publicUrl, hasAccount: recipient !== undefined }, language);
    // Someone without an account yet is invited in the sharer's language.
    if (!recipient) return deps.sendMail(mail((await deps.settingsOf(ownerId)).appearance.language));
    // An account whose address is unproven may not be that person's: the mail goes to the
    // address, and nothing (not even the folder's name) to the account's bell.
    if (recipient.email_verified_at === null) return deps.sendMail(mail((await deps.settingsOf(recipient.id)).appearance.language));
    const sharer = owner.lastName ? `${owner.firstName} ${owner.lastName}` : owner.firstName;
    return deps.notifyUser(recipient.id, { type: 'folder_shared', details: { folder: folderName, owner: sharer }, mail });
  }

  /** The share behind a token, with its live item; 404, 410 or 401 (password) otherwise. */
  async function resolve(token: string, accessToken: string | undefined): Promise<ResolvedShare> {
    const share = await shares.findByTokenHash(tokens.hash(token));
    if (!share || share.kind !== 'link' || !(await deps.ownerActive(share.user_id))) throw notFound(SHARE_NOT_FOUND, 'SHARE_NOT_FOUND');
    if (share.expires_at !== null && share.expires_at <= now())
      throw new AppError(410, 'SHARE_EXPIRED', 'This link has expired. Ask the owner for a new one.');
    let resolved: ResolvedShare | undefined;
    if (share.file_id) {
      const file = await files.findLive(share.user_id, share.file_id);
      if (file) resolved = { share, ownerId: share.user_id, type: 'file', file };
    } else if (share.folder_id) {
      const folder = await folders.findLive(share.user_id, share.folder_id);
      if (folder) resolved = { share, ownerId: share.user_id, type: 'folder', folder };
    }
    if (!resolved) throw notFound(SHARE_NOT_FOUND, 'SHARE_NOT_FOUND');
    if (share.password_hash !== null && !(await tokens.hasAccess(share.id, accessToken))) {
      throw new AppError(401, 'SHARE_PASSWORD_REQUIRED', 'This link is protected by a password.', { passwordRequired: true });
    }
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
    insideSharedFolder,

    async shareFile(userId: string, fileId: string, input: { expiresIn?: number; password?: string }): Promise<ShareLinkResponse> {
      if (!(await files.findLive(userId, fileId))) throw notFound('File not found', 'FILE_NOT_FOUND');
      await linkLimits(userId, input.expiresIn, input.password);
      return createLink(userId, { file_id: fileId, folder_id: null }, input.expiresIn ?? DEFAULT_LINK_HOURS, input.password);
    },

    async shareFolder(
      userId: string,
      folderId: string,
      input: ShareFolderBody,
    ): Promise<ShareLinkResponse | { message: string; share: Share }> {
      const folder = await folders.findLive(userId, folderId);
      if (!folder) throw notFound('Folder not found', 'FOLDER_NOT_FOUND');
      if (input.shareType === 'public') {
        // The plan's longest lifetime when none is asked for: every plan has one, so a folder
        // link, like a file link, always ends (docs/decisions/0014).
        const maxHours = await linkLimits(userId, input.expiresIn, input.password);
        return createLink(userId, { file_id: null, folder_id: folderId }, input.expiresIn ?? maxHours, input.password);
      }
      const email = normalizeEmail(input.email);
      if (!isValidEmail(email)) throw badRequest('Please enter a valid e-mail address.', 'INVALID_EMAIL');
      const owner = await deps.users.byId(userId);
      if (owner && normalizeEmail(owner.email) === email) throw badRequest('You cannot share a folder with yourself.', 'SHARE_WITH_SELF');
      let row = await shares.findPrivate(userId, folderId, email);
      if (!row) {
        // Checked before anything is stored: a refused share leaves no row and sends no mail.
        await countAttempts([deps.invitationsPerOwner, userId]);
        row = {
          id: newId(),
          user_id: userId,
          kind: 'private',
          file_id: null,
          folder_id: folderId,
          token_hash: null,
          email,
          password_hash: null,
          expires_at: null,
          revoked_at: null,
          download_count: 0,
          created_at: now(),
        };
        await shares.insert(row);
        await deps.activity.record(userId, 'share', { kind: 'private', item: 'folder', name: folder.name, email });
        await notifyRecipient(userId, email, folder.name);
      }
      const showCounts = (await deps.settingsOf(userId)).privacy.shareAnalytics;
      return { message: `Folder shared with ${email}`, share: presentShare({ ...row, item_name: folder.name }, showCounts) };
    },

    /**
     * The owner's shares as docs/api.md#sharing lists them, read from the database a page at a time as
     * the answer is written (lib/json-stream.ts): any number of shares holds one page.
     */
    async list(userId: string): Promise<AsyncIterable<Share>> {
      const showCounts = (await deps.settingsOf(userId)).privacy.shareAnalytics;
      return inPages(
        LIST_PAGE,
        (after: ListedShare | null, limit: number) =>
          shares.listForOwnerPage(userId, after && { createdAt: after.created_at, id: after.id }, limit),
        (row) => presentShare(row, showCounts),
      );
    },

    async revoke(userId: string, shareId: string): Promise<void> {
      if (!(await shares.revoke(userId, shareId, now()))) throw notFound('Share not found', 'SHARE_NOT_FOUND');
    },

    counts(userId: string) {
      return shares.counts(userId, now());
    },

    async sharedWithMe(userId: string): Promise<SharedFolder[]> {
      const user = await deps.users.byId(userId);
      // docs/api.md#email-verification: only a verified address sees what was shared with it; anyone can register any address.
      if (!user || user.email_verified_at === null) return [];
      const rows = await shares.sharedWithEmail(normalizeEmail(user.email));
      const active = await Promise.all(rows.map((row) => deps.ownerActive(row.owner_id)));
      return Promise.all(
        rows
          .filter((_row, index) => active[index])
          .map(async (row) => ({
            id: row.id,
            name: row.name,
            // Shown at the top of the recipient's view: no parent of the owner's is revealed.
            parentId: null,
            createdAt: row.created_at,
            updatedAt: row.updated_at,
            shareId: row.share_id,
            owner: await ownerAsShown(row.owner_id, 'private'),
          })),
      );
    },

    /**
     * The topmost of these folders (an owner's path, top first) that is shared privately
     * with the caller: what makes a folder of someone else's readable to them.
     */
    async privateShareRoot(userId: string, ownerId: string, path: FoldersTable[]): Promise<string | null> {
      const user = await deps.users.byId(userId);
      // Unverified: the address may not be theirs, so nothing shared with it is readable.
      if (!user || user.email_verified_at === null || !(await deps.ownerActive(ownerId))) return null;
      const shared = new Set(
        await shares.privatelySharedAmong(
          ownerId,
          normalizeEmail(user.email),
          path.map((folder) => folder.id),
        ),
      );
      return path.find((folder) => shared.has(folder.id))?.id ?? null;
    },

    // --- Visitors of a link ---------------------------------------------------------

    async describe(token: string, accessToken: string | undefined): Promise<PublicShare> {
      const resolved = await resolve(token, accessToken);
      const owner = await ownerAsShown(resolved.ownerId, 'link');
      if (resolved.type === 'file') {
        const size = Number(resolved.file.size);
        const { file } = resolved;
        return {
          type: 'file',
          name: file.name,
          size,
          sizeFormatted: formatBytes(size),
          mimetype: file.mimetype,
          preview: previewOf(file.mimetype),
          contentTag: contentTagOf(file.sha256),
          expiresAt: resolved.share.expires_at,
          owner,
        };
      }
      return { type: 'folder', name: resolved.folder.name, expiresAt: resolved.share.expires_at, owner, folderId: resolved.folder.id };
    },

    async items(token: string, accessToken: string | undefined, folderId: string | undefined): Promise<PublicItemsResponse> {
      const resolved = await resolve(token, accessToken);
      if (resolved.type !== 'folder') throw notFound('This link is for a file, not a folder.', 'NOT_A_FOLDER');
      const path = await insideSharedFolder(resolved.ownerId, resolved.folder.id, folderId ?? resolved.folder.id);
      const listed = path[path.length - 1] as FoldersTable;
      const [childFolders, childFiles] = await Promise.all([
        folders.listLive(resolved.ownerId, listed.id),
        files.listLive(resolved.ownerId, listed.id),
      ]);
      return {
        folders: childFolders.map(presentFolder),
        files: childFiles.map(presentFile),
        path: path.map((folder, index) => ({ id: folder.id, name: folder.name, parentId: index === 0 ? null : folder.parent_id })),
      };
    },

    /** A file inside a shared folder (any depth), or 404. */
    async fileInFolderShare(resolved: ResolvedShare, fileId: string): Promise<FilesTable> {
      if (resolved.type !== 'folder') throw notFound('File not found', 'FILE_NOT_FOUND');
      const file = await files.findLive(resolved.ownerId, fileId);
      if (!file || file.folder_id === null) throw notFound('File not found', 'FILE_NOT_FOUND');
      await insideSharedFolder(resolved.ownerId, resolved.folder.id, file.folder_id);
      return file;
    },

    async countDownload(share: ShareRow): Promise<void> {
      await shares.countDownload(share.id);
      await deps.countDailyDownload(share.id);
    },

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
      return tokens.grantAccess(share.id);
    },
  };
}

export type SharesService = ReturnType<typeof createSharesService>;
