import { Download, FolderOpen, TriangleAlert, Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { SharedFile } from '@cloudvault/contract/shares';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { FolderIcon } from '../../../components/ui/file-icon';
import { PageTitle } from '../../../components/ui/page-title';
import { useViewedFile, useViewerClosed } from '../../../hooks/use-viewed-file';
import { signedInFileSource } from '../../../lib/file-source';
import { notify } from '../../../lib/notify';
import { downloadSharedItem } from '../api/download-shared-item';
import { useSharedWithMe } from '../api/get-shared-with-me';
import { focusFileRow } from '../focus-file-row';
import { ownerName } from '../public-links';
import { sharedHref } from '../shared-href';
import type { EditorFolderSlot, ViewerSlot } from '../slots';
import { BackToFiles } from './back-link';
import { CopyToMyFilesButton } from './copy-to-my-files-button';
import { LeaveShareButton } from './leave-share-button';
import { LoadingState, Notice } from './page-states';
import { ReadOnlyItems } from './read-only-items';
import { SharedFolder } from './shared-folder';
import { formatDay } from '../../../lib/dates';

/**
 * 'Shared with me' (docs/product.md#shared-with-me): folders and files shared privately to the
 * user's e-mail, each with its owner, the user's role and Leave; an open folder
 * (`/shared?folder=<id>`) is browsed read-only by a viewer, in the file manager by an editor.
 */
export function SharedWithMePage({ viewer, editorFolder }: { viewer: ViewerSlot; editorFolder: EditorFolderSlot }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const folderId = params.get('folder');
  return (
    <>
      <PageTitle title={t('shares.withMe.pageTitle')} />
      <div className="min-w-0">
        <BackToFiles />
        <h1 className="mt-2 text-2xl font-bold tracking-tight text-ink sm:text-3xl">{t('shares.withMe.title')}</h1>
        <p className="mt-1.5 max-w-2xl text-sm text-ink-muted">{t('shares.withMe.subtitle')}</p>
      </div>
      {folderId ? (
        <SharedFolder key={folderId} folderId={folderId} viewer={viewer} editorFolder={editorFolder} />
      ) : (
        <section className="mt-6 overflow-hidden rounded-card border border-line bg-surface shadow-card">
          <SharedList viewer={viewer} />
        </section>
      )}
    </>
  );
}

function SharedList({ viewer: Viewer }: { viewer: ViewerSlot }) {
  const { t, i18n } = useTranslation();
  const shared = useSharedWithMe();
  const viewed = useViewedFile();
  useViewerClosed(viewed.fileId, focusFileRow);

  if (shared.isPending) return <LoadingState label={t('shares.withMe.loading')} />;
  if (shared.isError) {
    return (
      <Notice alert icon={<TriangleAlert aria-hidden="true" className="size-7 text-danger" />} title={t('shares.withMe.loadFailed')}>
        <Button variant="secondary" onClick={() => void shared.refetch()}>
          {t('shares.retry')}
        </Button>
      </Notice>
    );
  }
  const { folders, files } = shared.data;
  if (folders.length === 0 && files.length === 0) {
    return (
      <Notice icon={<Users aria-hidden="true" className="size-7" />} title={t('shares.withMe.empty')} body={t('shares.withMe.emptyHint')} />
    );
  }
  const sharedFiles = new Map<string, SharedFile>(files.map((file) => [file.id, file]));
  const downloadFile = (fileId: string) =>
    downloadSharedItem('file', fileId).then(
      () => notify.success('dashboard.download.fileStarted'),
      () => notify.error('dashboard.download.fileFailed'),
    );
  return (
    <>
      <ul aria-label={t('shares.withMe.listLabel')} className="divide-y divide-line">
        {folders.map((folder) => (
          <li key={folder.shareId} aria-label={folder.name} className="flex items-center gap-3 px-3 py-3 sm:px-5">
            <FolderIcon size="md" />
            <div className="min-w-0 flex-1">
              <Link
                to={sharedHref(folder.id)}
                className="focus-ring block truncate rounded-md text-sm font-semibold text-ink hover:text-brand-600 dark:hover:text-brand-300"
                title={folder.name}
              >
                {folder.name}
              </Link>
              <p className="truncate text-xs text-ink-muted">
                {t('shares.withMe.sharedBy', { owner: ownerName(folder.owner) })}
                <span className="text-ink-subtle"> · </span>
                {t(`dashboard.share.roles.${folder.role}`)}
                <span className="text-ink-subtle"> · </span>
                {t('shares.withMe.created', {
                  date: formatDay(folder.createdAt, i18n.language),
                })}
              </p>
            </div>
            <CopyToMyFilesButton item={{ kind: 'folder', id: folder.id }} name={folder.name} />
            <LeaveShareButton shareId={folder.shareId} name={folder.name} owner={folder.owner} />
            <Link
              to={sharedHref(folder.id)}
              tabIndex={-1}
              aria-hidden="true"
              className="grid size-9 shrink-0 place-items-center rounded-control text-ink-subtle hover:bg-surface-muted hover:text-ink"
            >
              <FolderOpen className="size-4" />
            </Link>
          </li>
        ))}
      </ul>
      {files.length > 0 && (
        // Files shared on their own: read-only rows as inside a shared folder, opening in the viewer.
        <div className="border-t border-line">
          <ReadOnlyItems
            folders={[]}
            files={files}
            folderHref={() => ''}
            source={signedInFileSource}
            onOpenFile={(file) => viewed.open(file.id)}
            fileAction={(file) => {
              const shared = sharedFiles.get(file.id);
              return (
                <>
                  {shared && <Badge tone="neutral">{t(`dashboard.share.roles.${shared.role}`)}</Badge>}
                  <CopyToMyFilesButton item={{ kind: 'file', id: file.id }} name={file.originalName} />
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => void downloadFile(file.id)}
                    aria-label={t('shares.browse.downloadNamed', { name: file.originalName })}
                  >
                    <Download aria-hidden="true" className="size-4" />
                  </Button>
                  {shared && <LeaveShareButton shareId={shared.shareId} name={file.originalName} owner={shared.owner} />}
                </>
              );
            }}
          />
        </div>
      )}
      {viewed.fileId !== null && files.length > 0 && (
        <Viewer files={files} fileId={viewed.fileId} source={signedInFileSource} onMove={viewed.move} onClose={viewed.close} />
      )}
    </>
  );
}
