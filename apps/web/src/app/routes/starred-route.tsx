import { StarredPage } from '../../features/starred/components/starred-page';
import { FileViewer } from '../../features/viewer/components/file-viewer';

/** /starred: the starred files and folders, with the file viewer from its feature. */
export function StarredRoute() {
  return <StarredPage viewer={FileViewer} />;
}
