import { lazyDialog } from '../../components/ui/lazy-dialog';
import type { UploadsSlot } from '../../features/dashboard/slots';
import { askNameClash } from '../../features/uploads/name-clash-prompt';
import { resolveClashes } from '../../features/uploads/name-clashes';
import { onFileUploaded, pickFolder, uploadDropped } from '../../features/uploads/upload-store';

// The dialog loads when first opened: the file manager's first paint needs none of it.
const UploadModal: UploadsSlot['Dialog'] = lazyDialog(
  () => import('../../features/uploads/components/upload-modal').then((m) => m.UploadModal),
  (props) => props.open,
);

/** Uploading into the open folder, for the file manager of My Files and of a folder shared with the user as editor. */
export const uploads: UploadsSlot = {
  Dialog: UploadModal,
  uploadDropped,
  onFileUploaded,
  pickFolder,
  resolveNameClashes: (clashes) => resolveClashes(clashes, askNameClash),
};
