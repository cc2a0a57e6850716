import { RecentPage } from '../../features/recent/components/recent-page';
import { FileViewer } from '../../features/viewer/components/file-viewer';

/** /recent: the files opened, uploaded or changed lately, with the file viewer from its feature. */
export function RecentRoute() {
  return <RecentPage viewer={FileViewer} />;
}
