import type { Settings } from '@cloudvault/contract/settings';
import type { SharedFile, SharedFolder } from '@cloudvault/contract/shares';
import { normalizeEmail } from '@cloudvault/contract/validation';
import type { FoldersTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { notFound } from '../../lib/errors.ts';
import { ownerAsShownBy, type ShareUser } from './share-owners.ts';
import type { ShareAccess } from '../folders/folders.service.ts';
import { presentFileSharedWithMe, presentFolderSharedWithMe, privateRoleOf } from './shares.presenter.ts';
import type { SharesRepository } from './shares.repository.ts';
import type { ShareMembersRepository } from './share-members.repository.ts';

/** What a share of a file on its own grants the person it names. */
export type FileShareAccess = { shareId: string; role: 'viewer' | 'editor'; mayReshare: boolean };

export interface SharedWithMeDeps {
  shares: Pick<SharesRepository, 'sharedWithEmail' | 'filesSharedWithEmail' | 'fileShareWith' | 'privateSharesAmong'>;
  users: { byId(id: string): Promise<ShareUser | undefined> };
  /** False while the owner is suspended: their links and private shares answer 404 (docs/decisions/0029-operator-console.md). */
  ownerActive(userId: string): Promise<boolean>;
  settingsOf(userId: string): Promise<Settings>;
  members: Pick<ShareMembersRepository, 'leave'>;
  clock: Clock;
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
     * (+++) The caller leaves a share made with their verified address: it ends at once, as
     * when its owner revokes it, and its root leaves their change feed. 404 for a share that
     * is not theirs, unknown or already ended.
     */
    async leave(userId: string, shareId: string): Promise<void> {
      const user = await verifiedUser(userId);
      const left = user ? await deps.members.leave(shareId, normalizeEmail(user.email), deps.clock.now().toISOString()) : false;
      if (!left) throw notFound('Share not found', 'SHARE_NOT_FOUND');
    },

    /**
     * What a share of someone else's file on its own grants the caller (what makes it
     * readable to them when no folder above it is shared), or null. Needs no files service,
     * so the files service can be given it without a cycle.
     */
    async privateFileShare(userId: string, ownerId: string, fileId: string): Promise<FileShareAccess | null> {
      const user = await verifiedUser(userId);
      if (!user || !(await deps.ownerActive(ownerId))) return null;
      const grant = await shares.fileShareWith(ownerId, normalizeEmail(user.email), fileId);
      return grant ? { shareId: grant.id, role: privateRoleOf(grant), mayReshare: grant.may_reshare === 1 } : null;
    },

    /**
     * What the private shares on an owner's path (top first) grant the caller: the topmost
     * shared folder starts their view; an editor's share anywhere on the path makes them an
     * editor under it (docs/decisions/0061-share-roles.md). Null when none is theirs. It
     * needs no folders service, so the folders service can be given it without a cycle.
     */
    async privateShareAccess(userId: string, ownerId: string, path: FoldersTable[]): Promise<ShareAccess | null> {
      const user = await verifiedUser(userId);
      if (!user || !(await deps.ownerActive(ownerId))) return null;
      const grants = new Map(
        (
          await shares.privateSharesAmong(
            ownerId,
            normalizeEmail(user.email),
            path.map((folder) => folder.id),
          )
        ).map((grant) => [grant.folder_id, grant]),
      );
      const onPath = path.flatMap((folder) => grants.get(folder.id) ?? []);
      const [top] = onPath;
      if (!top) return null;
      const editor = onPath.find((grant) => privateRoleOf(grant) === 'editor');
      return {
        rootId: top.folder_id,
        shareId: (editor ?? top).id,
        role: editor ? 'editor' : 'viewer',
        editorRootId: editor?.folder_id ?? null,
        mayReshare: onPath.some((grant) => grant.may_reshare === 1),
      };
    },
  };
}
