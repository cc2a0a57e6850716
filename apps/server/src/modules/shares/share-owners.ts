import type { Settings } from '@cloudvault/contract/settings';
import type { ShareOwner } from '@cloudvault/contract/shares';
import { notFound } from '../../lib/errors.ts';
import { presentOwner, type ShareAudience } from './shares.presenter.ts';

/** An account as sharing needs it: the names shown, and the address a private share is for. */
export interface ShareUser {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  email_verified_at: string | null;
}

export const SHARE_NOT_FOUND = 'This link does not exist or was revoked.';

export interface ShareOwnersDeps {
  users: { byId(id: string): Promise<ShareUser | undefined> };
  settingsOf(userId: string): Promise<Settings>;
}

/** The owner's name as their privacy settings let this audience see it; an owner gone since is a share not found. */
export function ownerAsShownBy(deps: ShareOwnersDeps) {
  return async (ownerId: string, audience: ShareAudience): Promise<ShareOwner> => {
    const owner = await deps.users.byId(ownerId);
    if (!owner) throw notFound(SHARE_NOT_FOUND, 'SHARE_NOT_FOUND');
    return presentOwner(owner, (await deps.settingsOf(ownerId)).privacy.profileVisibility, audience);
  };
}
