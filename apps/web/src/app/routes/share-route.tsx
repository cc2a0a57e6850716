import { FolderUp } from 'lucide-react';
import { FolderBrowserModal } from '../../features/dashboard/components/folder-picker-modal';
import { SharePage } from '../../features/share-in/components/share-page';
import type { FolderChooserSlot, StartUploadsSlot } from '../../features/share-in/slots';
import { planFromFiles } from '../../features/uploads/upload-plan';
import { startUploads } from '../../features/uploads/upload-store';

/** The file manager's folder dialog, which can also make a folder. */
const FolderChooser: FolderChooserSlot = (props) => <FolderBrowserModal icon={FolderUp} {...props} />;

/** The app's usual uploads: each shared file at the top of the chosen folder. */
const uploadShared: StartUploadsSlot = (files, folderId, config) => startUploads(planFromFiles(files), folderId, config);

/** /share: the files shared into the app from another one, with the file manager's folder chooser and the uploads feature. */
export function ShareRoute() {
  return <SharePage folderChooser={FolderChooser} startUploads={uploadShared} />;
}
