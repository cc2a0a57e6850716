import { notify, type MessageKey } from '../../lib/notify';
import { copyText } from './copy-text';

/**
 * Copies a new share link and says so. When the browser refuses the clipboard (no
 * permission, an insecure page) the toast shows the link itself, long enough to copy by hand.
 */
export async function announceLink(url: string, copied: MessageKey): Promise<void> {
  if (await copyText(url)) notify.success(copied);
  else notify.success('dashboard.share.linkReady', { values: { url }, duration: 10_000 });
}
