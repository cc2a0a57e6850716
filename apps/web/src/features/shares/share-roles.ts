import type { LinkRole, PrivateRole } from '@cloudvault/contract/shares';

// The contract's PRIVATE_ROLES and LINK_ROLES, copied: importing values from contract/shares
// would pull the schema library into the web bundle.

/** What a person may be given, the least first. */
export const PRIVATE_ROLE_CHOICES: readonly PrivateRole[] = ['viewer', 'editor'];

/** What a link of a file or a folder may let its visitors do: a file takes no uploads. */
export function linkRoleChoices(kind: 'file' | 'folder'): readonly LinkRole[] {
  return kind === 'file' ? ['view', 'view-only'] : ['view', 'view-only', 'upload', 'edit'];
}

/** The contract's MAX_DOWNLOAD_LIMIT. */
const MAX_DOWNLOAD_LIMIT = 1_000_000;

/**
 * A download limit as typed: empty is none (null), a whole number from 1 to the contract's
 * largest is the limit, anything else cannot be sent (undefined), so the form says why first.
 */
export function parseDownloadLimit(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value >= 1 && value <= MAX_DOWNLOAD_LIMIT ? value : undefined;
}

/** Whether a link of this role takes a message for its visitors (a file request does). */
export function takesMessage(role: LinkRole): boolean {
  return role === 'upload';
}
