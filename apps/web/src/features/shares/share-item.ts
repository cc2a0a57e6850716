import type { PlanId } from '@cloudvault/contract/plans';
import { notify } from '../../lib/notify';
import { announceLink } from './announce-link';
import { shareFile } from './api/create-share';

/** What can be shared: a file or a folder of the user's drive. */
export interface ShareTarget {
  kind: 'file' | 'folder';
  id: string;
  name: string;
}

/**
 * Files and folders alike are shared through the dialog (ShareDialog): a link with its
 * options, a person, and the item's existing shares (issue 36). The plan only changes what
 * the dialog offers.
 */
export function sharesThroughDialog(_item: ShareTarget, _plan: PlanId | undefined): boolean {
  return true;
}

/** Creates a file's link with the default lifetime and copies it, or says why it failed (kept for the sharing slot's callers). */
export function shareFileAtOnce(fileId: string): Promise<void> {
  return shareFile(fileId)
    .then(({ shareUrl }) => announceLink(shareUrl, 'dashboard.share.fileCopied'))
    .catch(() => {
      notify.error('dashboard.share.fileFailed');
    });
}
