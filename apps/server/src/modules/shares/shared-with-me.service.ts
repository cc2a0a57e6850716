import type { Settings } from '@cloudvault/contract/settings';
import type { SharedFile, SharedFolder } from '@cloudvault/contract/shares';
import { normalizeEmail } from '@cloudvault/contract/validation';
import type { FoldersTable } from '../../db/schema.ts';
import { ownerAsShownBy, type ShareUser } from './share-owners.ts';
import { presentFileSharedWithMe, presentFolderSharedWithMe } from './shares.presenter.ts';
import type { SharesRepository } from './shares.repository.ts';

export interface SharedWithMeDeps {
  shares: Pick<SharesRepository, 'sharedWithEmail' | 'filesSharedWithEmail' | 'isFileSharedWith' | 'privatelySharedAmong'>;
  users: { byId(id: string): Promise<ShareUser | undefined> };
  /** False while the owner is suspended: their links and private shares answer 404 (docs/decisions/0029-operator-console.md). */
  ownerActive(userId: string): Promise<boolean>;
  settingsOf(userId: string): Promise<Settings>;
}

/**
 * The recipient's side of private shares: what was shared with their address, and which
 * of someone else's folders that makes readable. Only an account that proved it owns the
 * address reads anything: anyone can register any address.
 */
export function createSharedWithMeService(deps: SharedWithMeDeps) {
  const { shares } = deps;
  const ownerAsShown = ownerAsShownBy(deps);

  async function verifiedUser(userId: string): Promise<ShareUser | undefined> {
    const user = await deps.users.byId(userId);
    return user && user.email_verified_at !== null ? user : undefined;
  }

  return {
    /** docs/api.md#email-verification: the live folders shared with the caller's verified address, of owners not suspended. */
    async sharedWithMe(userId: string): Promise<SharedFolder[]> {
      const user = await verifiedUser(userId);
      if (!user) return [];
      const rows = await shares.sharedWithEmail(normalizeEmail(user.email));
      const active = await Promise.all(rows.map((row) => deps.ownerActive(row.owner_id)));
      return Promise.all(
        rows
          .filter((_row, index) => active[index])
          .map(async (row) => presentFolderSharedWithMe(row, await ownerAsShown(row.owner_id, 'private'))),
      );
    },

    /** (+) The live files shared on their own with the caller's verified address, of owners not suspended. */
    async filesSharedWithMe(userId: string): Promise<SharedFile[]> {
      const user = await verifiedUser(userId);
      if (!user) return [];
      const rows = await shares.filesSharedWithEmail(normalizeEmail(user.email));
      const active = await Promise.all(rows.map((row) => deps.ownerActive(row.owner_id)));
      return Promise.all(
        rows
          .filter((_row, index) => active[index])
          .map(async (row) => presentFileSharedWithMe(row, await ownerAsShown(row.owner_id, 'private'))),
      );
    },

    /**
     * Whether someone else's file is shared on its own with the caller (what makes it
     * readable to them when no folder above it is shared). Needs no files service, so the
     * files service can be given it without a cycle.
     */
    async privatelySharedFile(userId: string, ownerId: string, fileId: string): Promise<boolean> {
      const user = await verifiedUser(userId);
      if (!user || !(await deps.ownerActive(ownerId))) return false;
      return shares.isFileSharedWith(ownerId, normalizeEmail(user.email), fileId);
    },

    /**
     * The topmost of these folders (an owner's path, top first) that is shared privately
     * with the caller: what makes a folder of someone else's readable to them. It needs no
     * folders service, so the folders service can be given it without a cycle.
     */
    async privateShareRoot(userId: string, ownerId: string, path: FoldersTable[]): Promise<string | null> {
      const user = await verifiedUser(userId);
      if (!user || !(await deps.ownerActive(ownerId))) return null;
      const shared = new Set(
        await shares.privatelySharedAmong(
          ownerId,
          normalizeEmail(user.email),
          path.map((folder) => folder.id),
        ),
      );
      return path.find((folder) => shared.has(folder.id))?.id ?? null;
    },
  };
}
