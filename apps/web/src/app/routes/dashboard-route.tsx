import { lazyDialog } from '../../components/ui/lazy-dialog';
import { DashboardPage } from '../../features/dashboard/components/dashboard-page';
import { StarringContext, type SharingSlot, type UploadsSlot, type ViewerSlot } from '../../features/dashboard/slots';
import { shareFileAtOnce, sharesThroughDialog } from '../../features/shares/share-item';
import { useStarToggle } from '../../features/starred/api/star-items';
import { askNameClash } from '../../features/uploads/name-clash-prompt';
import { resolveClashes } from '../../features/uploads/name-clashes';
import { onFileUploaded, pickFolder, uploadDropped } from '../../features/uploads/upload-store';
import { VersionHistoryMenu } from '../../features/versions/components/version-history-menu';

// The dialogs and the viewer load when first opened: the dashboard's first paint needs none of them.
const UploadModal: UploadsSlot['Dialog'] = lazyDialog(
  () => import('../../features/uploads/components/upload-modal').then((m) => m.UploadModal),
  (props) => props.open,
);
const ShareDialog: SharingSlot['Dialog'] = lazyDialog(
  () => import('../../features/shares/components/share-dialog').then((m) => m.ShareDialog),
  (props) => props.item !== null,
);
const FileViewer: ViewerSlot = lazyDialog(() => import('../../features/viewer/components/file-viewer').then((m) => m.FileViewer));

const uploads: UploadsSlot = {
  Dialog: UploadModal,
  uploadDropped,
  onFileUploaded,
  pickFolder,
  resolveNameClashes: (clashes) => resolveClashes(clashes, askNameClash),
};
const sharing: SharingSlot = { sharesThroughDialog, shareFileAtOnce, Dialog: ShareDialog };

/** /dashboard: the file manager, with uploads, sharing, starring, version history and the file viewer from their features. */
export function DashboardRoute() {
  const starToggle = useStarToggle();
  return (
    <StarringContext value={starToggle.mutate}>
      <DashboardPage uploads={uploads} sharing={sharing} versionHistory={VersionHistoryMenu} viewer={FileViewer} />
    </StarringContext>
  );
}
