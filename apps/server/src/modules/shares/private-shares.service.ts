import type { Language, Settings } from '@cloudvault/contract/settings';
import type { PrivateRole, Share } from '@cloudvault/contract/shares';
import { isValidEmail, normalizeEmail } from '@cloudvault/contract/validation';
import type { MailMessage } from '../../adapters/mail/mailer.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { countAttempts, type FailureLimiter } from '../../lib/failure-limiter.ts';
import { newId } from '../../lib/ids.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { FilesService } from '../files/files.service.ts';
import type { FoldersService } from '../folders/folders.service.ts';
import { sharedItemMail, type SharedItemKind } from './share-mail.ts';
import { ownerAsShownBy, type ShareUser } from './share-owners.ts';
import type { ShareMembersRepository } from './share-members.repository.ts';
import { presentPrivateShare, privateRoleOf } from './shares.presenter.ts';
import type { SharedItem, SharesRepository } from './shares.repository.ts';

export interface PrivateSharesDeps {
  shares: Pick<SharesRepository, 'findPrivate' | 'insert'>;
  members: Pick<ShareMembersRepository, 'setGrant'>;
  /** The owner's own folders, and what a share gives a member of someone else's (for sharing further). */
  folders: Pick<FoldersService, 'findLive' | 'readableFolder'>;
  files: Pick<FilesService, 'findLive'>;
  users: { byId(id: string): Promise<ShareUser | undefined>; byEmail(email: string): Promise<ShareUser | undefined> };
  settingsOf(userId: string): Promise<Settings>;
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
    event: { type: 'folder_shared' | 'file_shared'; details: Record<string, string>; mail: (language: Language) => MailMessage },
  ): Promise<void>;
  activity: Pick<ActivityService, 'record'>;
  clock: Clock;
  publicUrl: string;
}

/** (+++) What a private share lets its person do; without a role, a viewer, as shares always were. */
export interface PrivateGrant {
  role?: PrivateRole;
  mayReshare?: boolean;
}

/** A member's attempt to share further what their share does not let them (docs/decisions/0061-share-roles.md). */
export const reshareNotAllowed = (message = 'Only its owner can share this folder: ask them to let you share it further') =>
  forbidden(message, 'RESHARE_NOT_ALLOWED');

/**
 * The owner's side of sharing a folder or a file with an e-mail address, as a viewer or an
 * editor: the share is stored once per address and the recipient is told
 * (shared-with-me.service.ts is their side).
 */
export function createPrivateSharesService(deps: PrivateSharesDeps) {
  const { shares } = deps;
  const ownerAsShown = ownerAsShownBy(deps);

  /** A recipient with an account is notified per their settings; an e-mail with none yet gets an invitation. */
  async function notifyRecipient(ownerId: string, email: string, item: SharedItemKind, itemName: string) {
    const recipient = await deps.users.byEmail(email);
    const owner = await ownerAsShown(ownerId, 'private');
    const mail = (language: Language) =>
      sharedItemMail({ to: email, owner, item, itemName, publicUrl: deps.publicUrl, hasAccount: recipient !== undefined }, language);
    // Someone without an account yet is invited in the sharer's language.
    if (!recipient) return deps.sendMail(mail((await deps.settingsOf(ownerId)).appearance.language));
    // An account whose address is unproven may not be that person's: the mail goes to the
    // address, and nothing (not even the item's name) to the account's bell.
    if (recipient.email_verified_at === null) return deps.sendMail(mail((await deps.settingsOf(recipient.id)).appearance.language));
    const sharer = owner.lastName ? `${owner.firstName} ${owner.lastName}` : owner.firstName;
    return item === 'folder'
      ? deps.notifyUser(recipient.id, { type: 'folder_shared', details: { folder: itemName, owner: sharer }, mail })
      : deps.notifyUser(recipient.id, { type: 'file_shared', details: { file: itemName, owner: sharer }, mail });
  }

  /**
   * Shares one of the owner's live items with an address. Sharing it again with the same
   * address sends nothing and answers the same share; a role or reshare flag given that
   * differs from the stored one replaces it (what the owner asked last is what holds).
   */
  async function shareWith(
    userId: string,
    item: SharedItem,
    itemName: string,
    address: string,
    grant: PrivateGrant,
    /** A member sharing the owner's folder further: the share is the owner's, the invitations theirs. */
    sharer: string = userId,
  ): Promise<{ message: string; share: Share }> {
    const email = normalizeEmail(address);
    if (!isValidEmail(email)) throw badRequest('Please enter a valid e-mail address.', 'INVALID_EMAIL');
    for (const id of new Set([userId, sharer])) {
      const account = await deps.users.byId(id);
      if (account && normalizeEmail(account.email) === email)
        throw badRequest(`You cannot share a ${item.type} with ${id === sharer ? 'yourself' : 'its owner'}.`, 'SHARE_WITH_SELF');
    }
    let row = await shares.findPrivate(userId, item, email);
    // Only the owner changes what an existing share grants; a member sharing further gets it as it is.
    if (row && sharer === userId) row = await regrant(userId, row, grant);
    else if (!row) {
      // Checked before anything is stored: a refused share leaves no row and sends no mail.
      await countAttempts([deps.invitationsPerOwner, sharer]);
      row = {
        id: newId(),
        user_id: userId,
        kind: 'private',
        file_id: item.type === 'file' ? item.id : null,
        folder_id: item.type === 'folder' ? item.id : null,
        token_hash: null,
        email,
        password_hash: null,
        expires_at: null,
        revoked_at: null,
        download_count: 0,
        created_at: deps.clock.now().toISOString(),
        role: grant.role ?? 'viewer',
        may_reshare: grant.mayReshare ? 1 : 0,
      };
      await shares.insert(row);
      await deps.activity.record(sharer, 'share', { kind: 'private', item: item.type, name: itemName, email });
      await notifyRecipient(userId, email, item.type, itemName);
    }
    // A member sees no download counts of the owner's.
    const showCounts = sharer === userId && (await deps.settingsOf(userId)).privacy.shareAnalytics;
    const noun = item.type === 'file' ? 'File' : 'Folder';
    return { message: `${noun} shared with ${email}`, share: presentPrivateShare({ ...row, item_name: itemName }, showCounts) };
  }

  /** An existing share given the role and reshare flag asked again, where they were given and differ. */
  async function regrant<Row extends { id: string; role?: string; may_reshare?: number }>(
    userId: string,
    row: Row,
    grant: PrivateGrant,
  ): Promise<Row> {
    const role = grant.role ?? privateRoleOf(row);
    const mayReshare = grant.mayReshare === undefined ? (row.may_reshare ?? 0) : grant.mayReshare ? 1 : 0;
    if (role === privateRoleOf(row) && mayReshare === (row.may_reshare ?? 0)) return row;
    await deps.members.setGrant(userId, row.id, { role, may_reshare: mayReshare });
    return { ...row, role, may_reshare: mayReshare };
  }

  /**
   * (+++) A member whose share lets them share further shares the owner's folder (or one
   * inside it) with someone else, with a role no higher than their own there. The share is
   * the owner's (it is in the owner's list, and the owner changes or removes it); the
   * owner's folder is never the member's to share otherwise. Unreadable: 404.
   */
  async function shareFurther(userId: string, folderId: string, address: string, grant: PrivateGrant) {
    const { ownerId, access } = await deps.folders.readableFolder(userId, folderId);
    const folder = await deps.folders.findLive(ownerId, folderId);
    if (!access || !folder) throw notFound('Folder not found', 'FOLDER_NOT_FOUND');
    if (!access.mayReshare) throw reshareNotAllowed();
    if (grant.role === 'editor' && access.role !== 'editor')
      throw reshareNotAllowed('You can view this folder, so you can share it only with people who view it');
    return shareWith(ownerId, { type: 'folder', id: folderId }, folder.name, address, grant, userId);
  }

  return {
    async shareFolderWith(
      userId: string,
      folderId: string,
      address: string,
      grant: PrivateGrant = {},
    ): Promise<{ message: string; share: Share }> {
      const folder = await deps.folders.findLive(userId, folderId);
      if (folder) return shareWith(userId, { type: 'folder', id: folderId }, folder.name, address, grant);
      return shareFurther(userId, folderId, address, grant);
    },

    /** (+) A file on its own: its recipient can read that file and nothing else of the owner's (an editor: also change it). */
    async shareFileWith(
      userId: string,
      fileId: string,
      address: string,
      grant: PrivateGrant = {},
    ): Promise<{ message: string; share: Share }> {
      const file = await deps.files.findLive(userId, fileId);
      if (!file) throw notFound('File not found', 'FILE_NOT_FOUND');
      return shareWith(userId, { type: 'file', id: fileId }, file.name, address, grant);
    },
  };
}
