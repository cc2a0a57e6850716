import type { Settings } from '@cloudvault/contract/settings';
import {
  DEFAULT_LINK_HOURS,
  type LinkRole,
  PRIVATE_ROLES,
  type PrivateRole,
  type Share,
  type ShareLinkResponse,
  type UpdateShareBody,
} from '@cloudvault/contract/shares';
import { inPages } from '../../db/pages.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { FilesService } from '../files/files.service.ts';
import type { FoldersService } from '../folders/folders.service.ts';
import type { PlanEntry } from '../plans/plans.catalogue.ts';
import { checkLinkAgainstPlan, checkLinkRole, checkPasswordInPlan, expiryTooLong, type LinkRequest } from './link-policy.ts';
import type { ShareTokens } from './share-tokens.ts';
import { linkRoleOf, presentLinkShare, presentPrivateShare } from './shares.presenter.ts';
import type { ListedShare, ShareChanges, SharesRepository } from './shares.repository.ts';

const HOUR = 60 * 60 * 1000;
/** Shares per query of the owner's listing. */
const LIST_PAGE = 500;

export interface OwnerSharesDeps {
  shares: Pick<SharesRepository, 'insert' | 'listForOwnerPage' | 'revoke' | 'counts' | 'findForOwner' | 'update'>;
  files: Pick<FilesService, 'findLive'>;
  folders: Pick<FoldersService, 'findLive'>;
  planOf(userId: string): Promise<PlanEntry>;
  passwords: { hash(password: string): Promise<string> };
  tokens: Pick<ShareTokens, 'tokenFor' | 'hash'>;
  settingsOf(userId: string): Promise<Settings>;
  activity: Pick<ActivityService, 'record'>;
  clock: Clock;
  publicUrl: string;
}

/**
 * The owner's side of links: making one for a file or a folder of their own within what
 * their plan allows, and listing, revoking and counting every share they made.
 */
export function createOwnerSharesService(deps: OwnerSharesDeps) {
  const { shares, files, folders, tokens, clock } = deps;
  const shareUrlOf = (shareId: string) => `${deps.publicUrl}/s/${tokens.tokenFor(shareId)}`;

  async function createLink(
    userId: string,
    item: { file_id: string | null; folder_id: string | null },
    itemName: string,
    expiresIn: number,
    request: LinkRequest,
  ): Promise<ShareLinkResponse> {
    const { password } = request;
    const role = request.role ?? 'view';
    checkLinkRole(item.file_id ? 'file' : 'folder', role, request.message);
    const id = newId();
    const createdAt = clock.now();
    const expiresAt = new Date(createdAt.getTime() + expiresIn * HOUR).toISOString();
    await shares.insert({
      id,
      user_id: userId,
      kind: 'link',
      ...item,
      // Only the token's hash is stored: a copy of the database opens no links (share-tokens.ts).
      token_hash: tokens.hash(tokens.tokenFor(id)),
      email: null,
      password_hash: password === undefined ? null : await deps.passwords.hash(password),
      expires_at: expiresAt,
      revoked_at: null,
      download_count: 0,
      created_at: createdAt.toISOString(),
      role,
      download_limit: request.downloadLimit ?? null,
      message: request.message ?? null,
    });
    // The name as it is now: the entry still reads right once the item is renamed or deleted.
    await deps.activity.record(userId, 'share', { kind: 'link', item: item.file_id ? 'file' : 'folder', name: itemName });
    return { shareUrl: shareUrlOf(id), shareId: id, expiresAt };
  }

  /** Present the share as the owner's list does. */
  async function presentForOwner(row: ListedShare): Promise<Share> {
    const showCounts = (await deps.settingsOf(row.user_id)).privacy.shareAnalytics;
    return row.kind === 'link' ? presentLinkShare(row, shareUrlOf(row.id), showCounts) : presentPrivateShare(row, showCounts);
  }

  /** A link's new settings, checked against what it shares and the owner's plan. */
  async function linkChanges(row: ListedShare, body: UpdateShareBody): Promise<ShareChanges> {
    if (body.mayReshare !== undefined) throw settingNotForKind('mayReshare', 'link');
    if (body.role !== undefined && (PRIVATE_ROLES as readonly string[]).includes(body.role))
      throw badRequest("A link's role is view, view-only, upload or edit.", 'ROLE_NOT_FOR_SHARE');
    const role = (body.role as LinkRole | undefined) ?? linkRoleOf(row);
    const itemType = row.file_id ? 'file' : 'folder';
    // A message already stored goes with a role that no longer shows it.
    const keepsMessage = body.message !== undefined ? body.message : role === 'upload' || role === 'edit' ? row.message : null;
    checkLinkRole(itemType, role, keepsMessage);
    const changes: ShareChanges = { role, message: keepsMessage ?? null };
    const plan = await deps.planOf(row.user_id);
    if (body.expiresAt !== undefined) {
      const now = clock.now().getTime();
      const longest = now + plan.capabilities.maxShareExpiryHours * HOUR;
      const asked = body.expiresAt === null ? longest : Date.parse(body.expiresAt);
      if (Number.isNaN(asked)) throw badRequest('expiresAt must be a date and time.', 'INVALID_EXPIRY');
      if (asked <= now) throw badRequest('A link can only be set to expire in the future.', 'EXPIRY_IN_PAST');
      if (asked > longest) throw expiryTooLong(plan);
      changes.expires_at = new Date(asked).toISOString();
    }
    if (body.downloadLimit !== undefined) changes.download_limit = body.downloadLimit;
    if (body.password !== undefined && body.password !== null) checkPasswordInPlan(plan);
    if (body.password !== undefined) changes.password_hash = body.password === null ? null : await deps.passwords.hash(body.password);
    return changes;
  }

  /** A private share's new role and right to share further. */
  function privateChanges(body: UpdateShareBody): ShareChanges {
    for (const field of ['expiresAt', 'downloadLimit', 'password', 'message'] as const)
      if (body[field] !== undefined) throw settingNotForKind(field, 'private share');
    if (body.role !== undefined && !(PRIVATE_ROLES as readonly string[]).includes(body.role))
      throw badRequest("A person's role is viewer or editor.", 'ROLE_NOT_FOR_SHARE');
    return {
      ...(body.role !== undefined ? { role: body.role as PrivateRole } : {}),
      ...(body.mayReshare !== undefined ? { may_reshare: body.mayReshare ? 1 : 0 } : {}),
    };
  }

  return {
    /** A link to one of the owner's live files: 24 hours unless asked otherwise. */
    async shareFile(userId: string, fileId: string, request: LinkRequest): Promise<ShareLinkResponse> {
      const file = await files.findLive(userId, fileId);
      if (!file) throw notFound('File not found', 'FILE_NOT_FOUND');
      checkLinkAgainstPlan(await deps.planOf(userId), request);
      return createLink(userId, { file_id: fileId, folder_id: null }, file.name, request.expiresIn ?? DEFAULT_LINK_HOURS, request);
    },

    /**
     * A link to one of the owner's live folders. The plan's longest lifetime when none is asked
     * for: every plan has one, so a folder link, like a file link, always ends (docs/decisions/0014).
     */
    async shareFolderLink(userId: string, folderId: string, request: LinkRequest): Promise<ShareLinkResponse> {
      const folder = await folders.findLive(userId, folderId);
      if (!folder) throw notFound('Folder not found', 'FOLDER_NOT_FOUND');
      const maxHours = checkLinkAgainstPlan(await deps.planOf(userId), request);
      return createLink(userId, { file_id: null, folder_id: folderId }, folder.name, request.expiresIn ?? maxHours, request);
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
        (row) => (row.kind === 'link' ? presentLinkShare(row, shareUrlOf(row.id), showCounts) : presentPrivateShare(row, showCounts)),
      );
    },

    /**
     * Changes a share's settings in place: its address (token) and item stay. Access reads the
     * row on every request, so a new role, limit or password holds at once on every node.
     * Another user's share, one revoked, or one whose item is gone is not found.
     */
    async update(userId: string, shareId: string, body: UpdateShareBody): Promise<{ share: Share }> {
      const row = await shares.findForOwner(userId, shareId);
      if (!row) throw notFound('Share not found', 'SHARE_NOT_FOUND');
      const changes = row.kind === 'link' ? await linkChanges(row, body) : privateChanges(body);
      if (!(await shares.update(userId, shareId, changes))) throw notFound('Share not found', 'SHARE_NOT_FOUND');
      return { share: await presentForOwner({ ...row, ...changes }) };
    },

    /** Another user's share, or one already revoked, is not found. */
    async revoke(userId: string, shareId: string): Promise<void> {
      if (!(await shares.revoke(userId, shareId, clock.now().toISOString()))) throw notFound('Share not found', 'SHARE_NOT_FOUND');
    },

    counts(userId: string) {
      return shares.counts(userId, clock.now().toISOString());
    },
  };
}

const settingNotForKind = (field: string, kind: string) => badRequest(`${field} is not a setting of a ${kind}.`, 'SETTING_NOT_FOR_SHARE');
