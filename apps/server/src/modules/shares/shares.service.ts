import type { ShareFileBody, ShareFolderBody } from '@cloudvault/contract/shares';
import { createOwnerSharesService, type OwnerSharesDeps } from './owner-shares.service.ts';
import { createPrivateSharesService, type PrivateSharesDeps } from './private-shares.service.ts';
import { createPublicLinksService, type PublicLinksDeps } from './public-links.service.ts';
import { createSharedWithMeService, type SharedWithMeDeps } from './shared-with-me.service.ts';

/** Everything sharing needs; each part below takes only its own slice of it. */
export type SharesServiceDeps = OwnerSharesDeps & PrivateSharesDeps & SharedWithMeDeps & PublicLinksDeps;

/**
 * Sharing, in parts with a job each: the owner's links and listing (owner-shares.service.ts),
 * sharing a folder with an e-mail (private-shares.service.ts), what the recipient may read
 * (shared-with-me.service.ts), and visitors of a link (public-links.service.ts).
 */
export function createSharesService(deps: SharesServiceDeps) {
  const ownerShares = createOwnerSharesService(deps);
  const privateShares = createPrivateSharesService(deps);
  const sharedWithMe = createSharedWithMeService(deps);
  const publicLinks = createPublicLinksService(deps);
  return {
    ...ownerShares,
    ...privateShares,
    ...sharedWithMe,
    ...publicLinks,

    /** docs/api.md#files: a file's link (the body without shareType, as it always was), or (+) a share with an e-mail. */
    shareFile(userId: string, fileId: string, input: ShareFileBody) {
      return input.shareType === 'private'
        ? privateShares.shareFileWith(userId, fileId, input.email, input)
        : ownerShares.shareFile(userId, fileId, input);
    },

    /** docs/api.md#sharing: one route makes a folder's public link or shares it with an e-mail. */
    shareFolder(userId: string, folderId: string, input: ShareFolderBody) {
      return input.shareType === 'public'
        ? ownerShares.shareFolderLink(userId, folderId, input)
        : privateShares.shareFolderWith(userId, folderId, input.email, input);
    },
  };
}

export type SharesService = ReturnType<typeof createSharesService>;
