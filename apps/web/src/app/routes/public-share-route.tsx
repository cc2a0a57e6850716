import { PublicSharePage } from '../../features/shares/components/public-share-page';
import { FileViewer } from '../../features/viewer/components/file-viewer';

/** /s/:token: a public link's page, with the file viewer from its feature. */
export function PublicShareRoute() {
  return <PublicSharePage viewer={FileViewer} />;
}
