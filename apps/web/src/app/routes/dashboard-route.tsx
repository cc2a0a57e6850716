import { DashboardPage } from '../../features/dashboard/components/dashboard-page';
import type { SharingSlot, UploadsSlot } from '../../features/dashboard/slots';
import { ShareDialog } from '../../features/shares/components/share-dialog';
import { shareFileAtOnce, sharesThroughDialog } from '../../features/shares/share-item';
import { UploadModal } from '../../features/uploads/components/upload-modal';
import { onFileUploaded, uploadDropped } from '../../features/uploads/upload-store';
import { VersionHistoryMenu } from '../../features/versions/components/version-history-menu';
import { FileViewer } from '../../features/viewer/components/file-viewer';

const uploads: UploadsSlot = { Dialog: UploadModal, uploadDropped, onFileUploaded };
const sharing: SharingSlot = { sharesThroughDialog, shareFileAtOnce, Dialog: ShareDialog };

/** /dashboard: the file manager, with uploads, sharing, version history and the file viewer from their features. */
export function DashboardRoute() {
  return <DashboardPage uploads={uploads} sharing={sharing} versionHistory={VersionHistoryMenu} viewer={FileViewer} />;
}
