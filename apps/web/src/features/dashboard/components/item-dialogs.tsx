import type { PlanId } from '@cloudvault/contract/plans';
import { lazyDialog } from '../../../components/ui/lazy-dialog';
import type { BrowserDialog } from '../hooks/use-item-actions-dialogs';
import type { DriveItem } from '../items';
import type { SharingSlot, UploadsSlot } from '../slots';

// Each dialog loads when first opened: the listing's first paint needs none of them.
const CreateFolderModal = lazyDialog(
  () => import('./create-folder-modal').then((m) => m.CreateFolderModal),
  (props) => props.open,
);
const DeleteItemModal = lazyDialog(
  () => import('./delete-item-modal').then((m) => m.DeleteItemModal),
  (props) => props.items !== null,
);
const RenameModal = lazyDialog(
  () => import('./rename-modal').then((m) => m.RenameModal),
  (props) => props.item !== null,
);
// Move and Copy share one picker (one chunk); each keeps its own wrapper, so each hands focus back to its own opener.
const loadFolderPicker = () => import('./folder-picker-modal').then((m) => m.FolderPickerModal);
const MoveModal = lazyDialog(loadFolderPicker, (props) => props.items !== null);
const CopyModal = lazyDialog(loadFolderPicker, (props) => props.items !== null);
const ShortcutsDialog = lazyDialog(
  () => import('./shortcuts-dialog').then((m) => m.ShortcutsDialog),
  (props) => props.open,
);

interface ItemDialogsProps {
  dialog: BrowserDialog;
  onClose: () => void;
  folderId: string | null;
  folderName: string;
  uploads: Pick<UploadsSlot, 'Dialog'>;
  sharing: Pick<SharingSlot, 'Dialog'>;
  plan: PlanId | undefined;
  /** The item is gone: it leaves the selection. */
  onDeleted: (item: DriveItem) => void;
  /** The Move dialog's choice: `items` into the folder `targetId` named `targetName`. */
  onMove: (items: DriveItem[], targetId: string | null, targetName: string) => void;
  /** The Copy dialog's choice, as the Move dialog's. */
  onCopy: (items: DriveItem[], targetId: string | null, targetName: string) => void;
}

/** The file manager's dialogs (upload, new folder, delete, rename, share, move, copy, shortcuts), `dialog` the open one. */
export function ItemDialogs(props: ItemDialogsProps) {
  const { dialog, onClose, folderId, folderName, uploads, sharing, plan, onDeleted, onMove, onCopy } = props;
  return (
    <>
      <uploads.Dialog open={dialog?.type === 'upload'} onClose={onClose} folderId={folderId} folderName={folderName} />
      <CreateFolderModal open={dialog?.type === 'create-folder'} onClose={onClose} parentId={folderId} parentName={folderName} />
      <DeleteItemModal items={dialog?.type === 'delete' ? dialog.items : null} onClose={onClose} onDeleted={onDeleted} />
      <RenameModal item={dialog?.type === 'rename' ? dialog.item : null} onClose={onClose} />
      <sharing.Dialog item={dialog?.type === 'share' ? dialog.item : null} plan={plan} onClose={onClose} />
      <MoveModal
        verb="move"
        items={dialog?.type === 'move' ? dialog.items : null}
        fromFolderId={folderId}
        onClose={onClose}
        onPick={onMove}
      />
      <CopyModal
        verb="copy"
        items={dialog?.type === 'copy' ? dialog.items : null}
        fromFolderId={folderId}
        onClose={onClose}
        onPick={onCopy}
      />
      <ShortcutsDialog open={dialog?.type === 'shortcuts'} onClose={onClose} />
    </>
  );
}
