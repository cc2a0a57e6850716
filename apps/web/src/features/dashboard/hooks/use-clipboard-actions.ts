import { notify } from '../../../lib/notify';
import { useCopyItems } from '../api/copy-items';
import { itemClipboard, useItemClipboard } from '../item-clipboard';
import type { DraggedItemRef, DriveItem } from '../items';
import { useMoveToFolder } from './use-move-to-folder';

const refsOf = (items: readonly DriveItem[]): DraggedItemRef[] => items.map((item) => ({ kind: item.kind, id: item.id }));

/**
 * Copying items on the server (the Copy dialog, a paste of copied items) and the in-app
 * clipboard: Ctrl/Cmd+C or X put the selection aside, Ctrl/Cmd+V in another folder copies
 * them there or moves them (through use-move-to-folder.ts, as a drag or the Move dialog does).
 * Each outcome is a toast (lib/notify.tsx), which screen readers hear as a polite status.
 */
export function useClipboardActions(folderId: string | null, folderName: string) {
  const clipboard = useItemClipboard();
  const copyItems = useCopyItems();
  // Bound to the folder the cut items came from, so that moving them here is not "moving where they are".
  const moveFromClipboard = useMoveToFolder(clipboard?.fromFolderId ?? null, () => {
    if (itemClipboard.get()?.mode === 'cut') itemClipboard.set(null);
  });

  const copyTo = (refs: DraggedItemRef[], targetFolderId: string | null, targetName: string) => {
    if (refs.length === 0) return;
    copyItems.mutate(
      { items: refs, targetFolderId },
      {
        onSuccess: ({ copied, error }) => {
          if (copied.length === 1) notify.success('dashboard.copy.success', { values: { folder: targetName } });
          else if (copied.length > 1)
            notify.success('dashboard.copy.successMany', { values: { count: copied.length, folder: targetName } });
          if (error) notify.error('dashboard.copy.failed', { error });
        },
      },
    );
  };

  return {
    clipboard,
    copyTo,
    /** Ctrl/Cmd+C (copy) or X (cut): the items go on the clipboard. */
    put(mode: 'copy' | 'cut', items: DriveItem[]) {
      if (items.length === 0) return;
      itemClipboard.set({ mode, items, fromFolderId: folderId });
      notify.success(mode === 'copy' ? 'dashboard.clipboard.copied' : 'dashboard.clipboard.cut', { values: { count: items.length } });
    },
    /** Ctrl/Cmd+V: the clipboard's items into the open folder. */
    paste() {
      const content = itemClipboard.get();
      if (!content) return;
      const refs = refsOf(content.items);
      if (content.mode === 'copy') {
        copyTo(refs, folderId, folderName);
      } else if (content.fromFolderId === folderId) {
        notify.info('dashboard.clipboard.alreadyHere');
      } else {
        moveFromClipboard(refs, folderId, folderName);
      }
    },
  };
}
