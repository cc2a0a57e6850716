import toast from 'react-hot-toast';
import { copyText } from './copy-text';

/**
 * Copies a new share link and says so. When the browser refuses the clipboard (no
 * permission, an insecure page) the toast shows the link itself, long enough to copy by hand.
 */
export async function announceLink(url: string, messages: { copied: string; shown: string }): Promise<void> {
  if (await copyText(url)) toast.success(messages.copied);
  else toast.success(messages.shown, { duration: 10_000 });
}
