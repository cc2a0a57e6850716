import type { PlanId } from '@cloudvault/contract/plans';
import toast from 'react-hot-toast';
import i18n from '../../lib/i18n';
import { announceLink } from './announce-link';
import { shareFile } from './api/create-share';
import { linkOptionsFor } from './link-options';

/** What can be shared: a file or a folder of the user's drive. */
export interface ShareTarget {
  kind: 'file' | 'folder';
  id: string;
  name: string;
}

/**
 * Folders always, and files on plans with link settings, are shared through a dialog
 * (ShareDialog); other files get their link at once (shareFileAtOnce).
 */
export function sharesThroughDialog(item: ShareTarget, plan: PlanId | undefined): boolean {
  return item.kind === 'folder' || linkOptionsFor(plan).extras;
}

/** Creates a file's link with the default lifetime and copies it, or says why it failed. */
export function shareFileAtOnce(fileId: string): Promise<void> {
  return shareFile(fileId)
    .then(({ shareUrl }) =>
      announceLink(shareUrl, {
        copied: i18n.t('dashboard.share.fileCopied'),
        shown: i18n.t('dashboard.share.linkReady', { url: shareUrl }),
      }),
    )
    .catch(() => {
      toast.error(i18n.t('dashboard.share.fileFailed'));
    });
}
