import { Trash2 } from 'lucide-react';
import { useContext, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { notify } from '../../../lib/notify';
import { useDeleteItem } from '../api/delete-item';
import type { DriveItem } from '../items';
import { DriveScopeContext } from '../slots';

/**
 * 'Delete Folder' / 'Delete File' for one item, whose name the confirmation holds; 'Delete
 * N items' for several, moved to Trash one by one (a refusal of one does not stop the others).
 */
export function DeleteItemModal({
  items,
  onClose,
  onDeleted,
}: {
  items: DriveItem[] | null;
  onClose: () => void;
  onDeleted: (item: DriveItem) => void;
}) {
  const { t } = useTranslation();
  // Inside a folder shared with the user what is deleted goes to its owner's Trash: they alone restore it.
  const shared = useContext(DriveScopeContext) !== null;
  const deleteItem = useDeleteItem();
  const [busy, setBusy] = useState(false);
  const item = items?.length === 1 ? items[0] : undefined;
  const many = items !== null && items.length > 1;
  const isFolder = item?.kind === 'folder';

  const onConfirm = async () => {
    if (!items) return;
    setBusy(true);
    let deleted = 0;
    let failure: unknown = null;
    for (const entry of items) {
      try {
        await deleteItem.mutateAsync(entry);
        onDeleted(entry);
        deleted += 1;
      } catch (error) {
        failure ??= error;
      }
    }
    setBusy(false);
    if (many) {
      if (deleted > 0) notify.success('dashboard.deleteMany.success', { values: { count: deleted } });
      if (failure) notify.error('dashboard.deleteMany.failed', { error: failure });
    } else if (failure) {
      // Folders show the server's reason when it gave one (docs/product.md#files-and-folders).
      if (isFolder) notify.error('dashboard.deleteFolder.failed', { error: failure });
      else notify.error('dashboard.deleteFile.failed');
      return;
    } else {
      notify.success(isFolder ? 'dashboard.deleteFolder.success' : 'dashboard.deleteFile.success');
    }
    onClose();
  };

  let title = '';
  let description = '';
  let confirm = '';
  if (many) {
    title = t('dashboard.deleteMany.title', { count: items.length });
    description = shared
      ? t('dashboard.deleteShared.many', { count: items.length })
      : t('dashboard.deleteMany.message', { count: items.length });
    confirm = t('dashboard.deleteMany.confirm');
  } else if (item) {
    title = isFolder ? t('dashboard.deleteFolder.title') : t('dashboard.deleteFile.title');
    if (shared) description = t('dashboard.deleteShared.one', { name: item.name });
    else
      description = isFolder
        ? t('dashboard.deleteFolder.message', { name: item.name })
        : t('dashboard.deleteFile.message', { name: item.name });
    confirm = isFolder ? t('dashboard.deleteFolder.confirm') : t('dashboard.deleteFile.confirm');
  }

  return (
    <Modal
      open={items !== null && items.length > 0}
      onClose={onClose}
      busy={busy}
      size="sm"
      title={title}
      description={description}
      icon={
        <span className="grid size-10 place-items-center rounded-xl bg-danger-soft text-danger">
          <Trash2 aria-hidden="true" className="size-5" />
        </span>
      }
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t('ui.cancel')}
          </Button>
          <Button variant="danger" onClick={onConfirm} loading={busy}>
            {confirm}
          </Button>
        </>
      }
    />
  );
}
