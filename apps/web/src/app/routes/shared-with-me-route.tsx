import { SharedWithMePage } from '../../features/shares/components/shared-with-me-page';
import { FileViewer } from '../../features/viewer/components/file-viewer';

/** /shared: folders shared with the user, with the file viewer from its feature. */
export function SharedWithMeRoute() {
  return <SharedWithMePage viewer={FileViewer} />;
}
