import { lazyDialog } from '../../components/ui/lazy-dialog';
import { DashboardPage } from '../../features/dashboard/components/dashboard-page';
import { StarringContext, type SharingSlot, type ViewerSlot } from '../../features/dashboard/slots';
import { shareFileAtOnce, sharesThroughDialog } from '../../features/shares/share-item';
import { useStarToggle } from '../../features/starred/api/star-items';
import { VersionHistoryMenu } from '../../features/versions/components/version-history-menu';
import { uploads } from './uploads-slot';

// The dialog and the viewer load when first opened: the dashboard's first paint needs none of them.
const ShareDialog: SharingSlot['Dialog'] = lazyDialog(
  () => import('../../features/shares/components/share-dialog').then((m) => m.ShareDialog),
  (props) => props.item !== null,
);
const FileViewer: ViewerSlot = lazyDialog(() => import('../../features/viewer/components/file-viewer').then((m) => m.FileViewer));

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
