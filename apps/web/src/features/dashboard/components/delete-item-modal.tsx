import { Trash2 } from 'lucide-react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { serverErrorMessage } from '../../../lib/api-client';
import { useDeleteItem } from '../api/delete-item';
import type { DriveItem } from '../items';

/** 'Delete Folder' / 'Delete File': the confirmation holds the item's id and name. */
export function DeleteItemModal({
  item,
  onClose,
  onDeleted,
}: {
  item: DriveItem | null;
  onClose: () => void;
  onDeleted: (item: DriveItem) => void;
}) {
  const { t } = useTranslation();
  const deleteItem = useDeleteItem();
  const isFolder = item?.kind === 'folder';

  const onConfirm = async () => {
    if (!item) return;
    try {
      await deleteItem.mutateAsync(item);
      toast.success(isFolder ? t('dashboard.deleteFolder.success') : t('dashboard.deleteFile.success'));
      onDeleted(item);
      onClose();
    } catch (error) {
      // Folders show the server's reason when it gave one (docs/product.md#files-and-folders).
      toast.error(isFolder ? (serverErrorMessage(error) ?? t('dashboard.deleteFolder.failed')) : t('dashboard.deleteFile.failed'));
    }
  };

  return (
    <Modal
      open={item !== null}
      onClose={onClose}
      busy={deleteItem.isPending}
      size="sm"
      title={isFolder ? t('dashboard.deleteFolder.title') : t('dashboard.deleteFile.title')}
      description={
        item &&
        (isFolder ? t('dashboard.deleteFolder.message', { name: item.name }) : t('dashboard.deleteFile.message', { name: item.name }))
      }
      icon={
        <span className="grid size-10 place-items-center rounded-xl bg-danger-soft text-danger">
          <Trash2 aria-hidden="true" className="size-5" />
        </span>
      }
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={deleteItem.isPending}>
            {t('ui.cancel')}
          </Button>
          <Button variant="danger" onClick={onConfirm} loading={deleteItem.isPending}>
            {isFolder ? t('dashboard.deleteFolder.confirm') : t('dashboard.deleteFile.confirm')}
          </Button>
        </>
      }
    />
  );
}
