import type { LinkRole } from '@cloudvault/contract/shares';
import { AppError, badRequest, forbidden } from '../../lib/errors.ts';
import type { PlanEntry } from '../plans/plans.catalogue.ts';

/** What the owner asks of a new link; absent fields take the defaults of the kind of link. */
export interface LinkRequest {
  expiresIn?: number;
  password?: string;
  role?: LinkRole;
  downloadLimit?: number;
  message?: string;
}

/**
 * Checks a link against the owner's plan before anything is stored: a lifetime beyond the
 * plan's longest, or a password on a plan without protected links, is 400. Answers the
 * plan's longest lifetime in hours, the default of a folder link.
 */
export function checkLinkAgainstPlan(plan: PlanEntry, request: LinkRequest): number {
  const maxHours = plan.capabilities.maxShareExpiryHours;
  if (request.expiresIn !== undefined && request.expiresIn > maxHours) throw expiryTooLong(plan);
  if (request.password !== undefined) checkPasswordInPlan(plan);
  return maxHours;
}

export const expiryTooLong = (plan: PlanEntry) =>
  badRequest(`Links on the ${plan.name} plan last at most ${plan.capabilities.maxShareExpiryHours} hours.`, 'EXPIRY_TOO_LONG');

export function checkPasswordInPlan(plan: PlanEntry): void {
  if (!plan.capabilities.passwordProtectedLinks)
    throw badRequest(`Password-protected links are not part of the ${plan.name} plan.`, 'PASSWORD_LINKS_NOT_IN_PLAN');
}

/** Roles whose visitors send files: a file request, or a folder people both see and fill. */
const RECEIVING_ROLES: ReadonlySet<LinkRole> = new Set(['upload', 'edit']);

/**
 * A link's role and message fit what it shares: a single file has nowhere to put what a
 * visitor sends, and a message is read only on the page of a link that takes files.
 */
export function checkLinkRole(itemType: 'file' | 'folder', role: LinkRole, message: string | null | undefined): void {
  if (itemType === 'file' && RECEIVING_ROLES.has(role))
    throw badRequest('Only a folder can receive files: a file link is view or view-only.', 'ROLE_NOT_FOR_FILES');
  if (message != null && !RECEIVING_ROLES.has(role))
    throw badRequest('A message is shown only on upload and edit links.', 'MESSAGE_NOT_FOR_ROLE');
}

/** Whether visitors of a link with this role send files (H2b's upload routes, the page's maxFileSize and message). */
export const receivesFiles = (role: LinkRole): boolean => RECEIVING_ROLES.has(role);

/**
 * What a visitor does with a link: `browse` (list a folder, its thumbnails, any file inside),
 * `view` (the bytes for display, inline) and `download` (as an attachment, or a zip).
 */
export type LinkUse = 'browse' | 'view' | 'download';

const ALLOWED_USES: Record<LinkRole, ReadonlySet<LinkUse>> = {
  view: new Set(['browse', 'view', 'download']),
  'view-only': new Set(['browse', 'view']),
  upload: new Set(),
  edit: new Set(['browse', 'view', 'download']),
};

/** A link's role refuses this use: 403, naming why, so the page can say so. */
export function requireLinkUse(role: LinkRole, use: LinkUse): void {
  if (ALLOWED_USES[role].has(use)) return;
  if (role === 'upload') throw forbidden('This link only receives files: nothing in it can be seen.', 'UPLOAD_ONLY_LINK');
  throw forbidden('This link lets you view its files, not download them.', 'DOWNLOAD_NOT_ALLOWED');
}

/** A link whose downloads reached the limit its owner set: every route of it answers this. */
export const downloadLimitReached = () => new AppError(410, 'DOWNLOAD_LIMIT_REACHED', 'This link has reached its download limit');
