import type { Settings } from '@cloudvault/contract/settings';
import { DEFAULT_LINK_HOURS, type Share, type ShareLinkResponse } from '@cloudvault/contract/shares';
import { inPages } from '../../db/pages.ts';
import type { Clock } from '../../lib/clock.ts';
import { notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { FilesService } from '../files/files.service.ts';
import type { FoldersService } from '../folders/folders.service.ts';
import type { PlanEntry } from '../plans/plans.catalogue.ts';
import { checkLinkAgainstPlan, type LinkRequest } from './link-policy.ts';
import type { ShareTokens } from './share-tokens.ts';
import { presentLinkShare, presentPrivateShare } from './shares.presenter.ts';
import type { ListedShare, SharesRepository } from './shares.repository.ts';

const HOUR = 60 * 60 * 1000;
/** Shares per query of the owner's listing. */
const LIST_PAGE = 500;

export interface OwnerSharesDeps {
  shares: Pick<SharesRepository, 'insert' | 'listForOwnerPage' | 'revoke' | 'counts'>;
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
      // Only the token's hash is stored: a copy of the database opens no links (share-tokens.ts).
      token_hash: tokens.hash(tokens.tokenFor(id)),
      email: null,
      password_hash: password === undefined ? null : await deps.passwords.hash(password),
      expires_at: expiresAt,
      revoked_at: null,
      download_count: 0,
      created_at: createdAt.toISOString(),
    });
    // The name as it is now: the entry still reads right once the item is renamed or deleted.
    await deps.activity.record(userId, 'share', { kind: 'link', item: item.file_id ? 'file' : 'folder', name: itemName });
    return { shareUrl: shareUrlOf(id), shareId: id, expiresAt };
  }

  return {
    /** A link to one of the owner's live files: 24 hours unless asked otherwise. */
    async shareFile(userId: string, fileId: string, request: LinkRequest): Promise<ShareLinkResponse> {
      const file = await files.findLive(userId, fileId);
      if (!file) throw notFound('File not found', 'FILE_NOT_FOUND');
      checkLinkAgainstPlan(await deps.planOf(userId), request);
      return createLink(userId, { file_id: fileId, folder_id: null }, file.name, request.expiresIn ?? DEFAULT_LINK_HOURS, request.password);
    },

    /**
     * A link to one of the owner's live folders. The plan's longest lifetime when none is asked
     * for: every plan has one, so a folder link, like a file link, always ends (docs/decisions/0014).
     */
    async shareFolderLink(userId: string, folderId: string, request: LinkRequest): Promise<ShareLinkResponse> {
      const folder = await folders.findLive(userId, folderId);
      if (!folder) throw notFound('Folder not found', 'FOLDER_NOT_FOUND');
      const maxHours = checkLinkAgainstPlan(await deps.planOf(userId), request);
      return createLink(userId, { file_id: null, folder_id: folderId }, folder.name, request.expiresIn ?? maxHours, request.password);
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

    /** Another user's share, or one already revoked, is not found. */
    async revoke(userId: string, shareId: string): Promise<void> {
      if (!(await shares.revoke(userId, shareId, clock.now().toISOString()))) throw notFound('Share not found', 'SHARE_NOT_FOUND');
    },

    counts(userId: string) {
      return shares.counts(userId, clock.now().toISOString());
    },
  };
}
