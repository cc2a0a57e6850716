import { Download, FolderX, TriangleAlert } from 'lucide-react';
import { notify } from '../../../lib/notify';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { useFiles } from '../../../hooks/use-files';
import { useFolderPath } from '../../../hooks/use-folder-path';
import { useFolders } from '../../../hooks/use-folders';
import { useViewedFile, useViewerClosed } from '../../../hooks/use-viewed-file';
import { ApiError } from '../../../lib/api-client';
import { signedInFileSource } from '../../../lib/file-source';
import type { ViewerSlot } from '../slots';
import { focusFileRow } from '../focus-file-row';
import { downloadSharedItem } from '../api/download-shared-item';
import { sharedHref } from '../shared-href';
import { CopyToMyFilesButton } from './copy-to-my-files-button';
import { CrumbTrail } from './crumb-trail';
import { FolderActivityButton } from './folder-activity';
import { LoadingState, Notice } from './page-states';
import { ReadOnlyItems } from './read-only-items';

/**
 * A folder shared with the user, read-only: the owner's folder routes answer for it (the
 * server checks it lies under a folder shared with the caller), with breadcrumbs that start
 * at the shared folder. Viewing and downloads only: nothing here uploads, renames, moves or deletes.
 */
export function SharedFolderView({ folderId, viewer: Viewer }: { folderId: string; viewer: ViewerSlot }) {
  const { t } = useTranslation();
  const viewed = useViewedFile();
  useViewerClosed(viewed.fileId, focusFileRow);
  const folders = useFolders(folderId);
  const files = useFiles(folderId);
  const path = useFolderPath(folderId);
  const queries = [folders, files, path];

  const download = (kind: 'file' | 'folder', id: string) => {
    const folder = kind === 'folder';
    downloadSharedItem(kind, id).then(
      () => notify.success(folder ? 'dashboard.download.folderStarted' : 'dashboard.download.fileStarted'),
      () => notify.error(folder ? 'dashboard.download.folderFailed' : 'dashboard.download.fileFailed'),
    );
  };
  /** A shared item's own actions: a copy into My Files, and its download. */
  const itemActions = (kind: 'file' | 'folder', id: string, name: string) => (
    <>
      <CopyToMyFilesButton item={{ kind, id }} name={name} />
      <Button variant="ghost" size="sm" onClick={() => download(kind, id)} aria-label={t('shares.browse.downloadNamed', { name })}>
        <Download aria-hidden="true" className="size-4" />
      </Button>
    </>
  );

  // Revoked, or never shared with this user: the folder routes answer 404.
  if (queries.some((query) => query.error instanceof ApiError && query.error.status === 404)) {
    return (
      <Notice
        alert
        icon={<FolderX aria-hidden="true" className="size-7" />}
        title={t('shares.withMe.gone')}
        body={t('shares.withMe.goneHint')}
      >
        <Link to={sharedHref(null)} className={buttonClasses({ variant: 'secondary' })}>
          {t('shares.withMe.backToList')}
        </Link>
      </Notice>
    );
  }
  if (queries.some((query) => query.isError)) {
    return (
      <Notice alert icon={<TriangleAlert aria-hidden="true" className="size-7 text-danger" />} title={t('shares.withMe.folderFailed')}>
        <Button variant="secondary" onClick={() => queries.forEach((query) => void query.refetch())}>
          {t('shares.retry')}
        </Button>
      </Notice>
    );
  }

  const current = path.data?.at(-1);
  return (
    <>
      <div className="flex flex-col gap-3 border-b border-line px-3 py-3 sm:flex-row sm:items-center sm:justify-between sm:px-5">
        <CrumbTrail
          crumbs={[
            { key: 'top', name: t('shares.withMe.title'), href: sharedHref(null) },
            ...(path.data ?? []).map((folder) => ({ key: folder.id, name: folder.name, href: sharedHref(folder.id) })),
          ]}
        />
        {current && (
          <div className="flex gap-2 self-start sm:self-auto">
            <FolderActivityButton folderId={current.id} name={current.name} />
            <Button variant="secondary" size="sm" onClick={() => download('folder', current.id)}>
              <Download aria-hidden="true" className="size-4" />
              {t('shares.browse.downloadFolder')}
            </Button>
          </div>
        )}
      </div>
      {folders.data && files.data ? (
        <ReadOnlyItems
          folders={folders.data}
          files={files.data}
          folderHref={(folder) => sharedHref(folder.id)}
          folderAction={(folder) => itemActions('folder', folder.id, folder.name)}
          source={signedInFileSource}
          onOpenFile={(file) => viewed.open(file.id)}
          fileAction={(file) => itemActions('file', file.id, file.originalName)}
        />
      ) : (
        <LoadingState label={t('shares.browse.loading')} />
      )}
      {viewed.fileId !== null && files.data && (
        // Read-only: Download is the one action (the viewer's own).
        <Viewer files={files.data} fileId={viewed.fileId} source={signedInFileSource} onMove={viewed.move} onClose={viewed.close} />
      )}
    </>
  );
}
