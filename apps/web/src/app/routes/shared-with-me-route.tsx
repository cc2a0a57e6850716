import { useTranslation } from 'react-i18next';
import { ScopedFolderPage } from '../../features/dashboard/components/scoped-folder-page';
import { SharedWithMePage } from '../../features/shares/components/shared-with-me-page';
import { sharedHref } from '../../features/shares/shared-href';
import type { EditorFolderSlot } from '../../features/shares/slots';
import { FileViewer } from '../../features/viewer/components/file-viewer';
import { uploads } from './uploads-slot';

/** A folder shared with the user as editor: the file manager of features/dashboard, its top the shared folder. */
const EditorFolder: EditorFolderSlot = ({ rootId }) => {
  const { t } = useTranslation();
  return (
    <ScopedFolderPage scope={{ rootId, topName: t('shares.withMe.title'), folderHref: sharedHref }} uploads={uploads} viewer={FileViewer} />
  );
};

/** /shared: what is shared with the user, with the file viewer and, for editors, the file manager from their features. */
export function SharedWithMeRoute() {
  return <SharedWithMePage viewer={FileViewer} editorFolder={EditorFolder} />;
}
