import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { serverErrorMessage } from '../../../lib/api-client';
import { useMoveItems } from '../api/update-item';
import type { DraggedItemRef } from '../items';

/**
 * Moves items out of the open folder (`folderId`) into another, saying how it went in a
 * toast; `onMoved` runs once the server has answered.
 */
export function useMoveToFolder(folderId: string | null, onMoved: () => void) {
  const { t } = useTranslation();
  const moveItems = useMoveItems();
  return (refs: DraggedItemRef[], targetFolderId: string | null, targetName: string) => {
    // Dropping a folder onto itself, or items where they already are, moves nothing.
    const wanted = refs.filter((ref) => !(ref.kind === 'folder' && ref.id === targetFolderId));
    if (wanted.length === 0 || targetFolderId === folderId) return;
    moveItems.mutate(
      { items: wanted, targetFolderId },
      {
        onSuccess: ({ moved, error }) => {
          if (moved.length === 1) toast.success(t('dashboard.move.success', { folder: targetName }));
          else if (moved.length > 1) toast.success(t('dashboard.move.successMany', { count: moved.length, folder: targetName }));
          if (error) toast.error(serverErrorMessage(error) ?? t('dashboard.move.failed'));
          onMoved();
        },
      },
    );
  };
}
