import { ArrowLeft, Star, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { FileItem } from '@cloudvault/contract/files';
import type { Folder } from '@cloudvault/contract/folders';
import { Button } from '../../../components/ui/button';
import { FileIcon, FolderIcon } from '../../../components/ui/file-icon';
import { PageTitle } from '../../../components/ui/page-title';
import { Spinner } from '../../../components/ui/spinner';
import { ThumbnailImage } from '../../../components/ui/thumbnail-image';
import { useViewedFile, useViewerClosed } from '../../../hooks/use-viewed-file';
import { formatDay } from '../../../lib/dates';
import { signedInFileSource } from '../../../lib/file-source';
import { folderHref } from '../../../lib/folder-href';
import { useFormatSize } from '../../../lib/format-size';
import { notify } from '../../../lib/notify';
import { useStarred } from '../api/get-starred';
import { type StarRef, useStarToggle } from '../api/star-items';
import type { ViewerSlot } from '../slots';

/** Gives the focus back to a file's row once the viewer it was opened in closes. */
function focusFileRow(fileId: string): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-file-id="${CSS.escape(fileId)}"]`)?.focus());
}

/** /starred: the files and folders the user starred, newest star first; a folder opens in My Files, a file in the viewer. */
export function StarredPage({ viewer: Viewer }: { viewer: ViewerSlot }) {
  const { t } = useTranslation();
  const starred = useStarred();
  const viewed = useViewedFile();
  useViewerClosed(viewed.fileId, focusFileRow);
  const files = starred.data?.files ?? [];

  return (
    <>
      <PageTitle title={t('starred.pageTitle')} />
      <Link
        to="/dashboard"
        className="focus-ring -ml-1 inline-flex items-center gap-1 rounded-md px-1 text-sm font-medium text-ink-muted hover:text-ink"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {t('starred.back')}
      </Link>
      <h1 className="mt-2 text-2xl font-bold tracking-tight text-ink sm:text-3xl">{t('starred.title')}</h1>
      <p className="mt-1.5 max-w-2xl text-sm text-ink-muted">{t('starred.subtitle')}</p>
      <section className="mt-6 overflow-hidden rounded-card border border-line bg-surface shadow-card">
        {starred.isPending ? (
          <div role="status" className="flex min-h-48 flex-col items-center justify-center gap-3 text-sm text-ink-muted">
            <Spinner className="size-7 text-brand-600 dark:text-brand-400" />
            {t('starred.loading')}
          </div>
        ) : starred.isError ? (
          <div role="alert" className="flex min-h-48 flex-col items-center justify-center gap-3 px-6 py-12 text-center">
            <TriangleAlert aria-hidden="true" className="size-7 text-danger" />
            <p className="text-base font-semibold text-ink">{t('starred.loadFailed')}</p>
            <Button variant="secondary" onClick={() => void starred.refetch()}>
              {t('starred.retry')}
            </Button>
          </div>
        ) : starred.data.folders.length === 0 && files.length === 0 ? (
          <div className="flex min-h-48 flex-col items-center justify-center gap-3 px-6 py-12 text-center">
            <span className="grid size-14 place-items-center rounded-2xl bg-surface-muted text-ink-muted">
              <Star aria-hidden="true" className="size-7" />
            </span>
            <h2 className="text-base font-semibold text-ink">{t('starred.empty')}</h2>
            <p className="max-w-sm text-sm text-ink-muted">{t('starred.emptyHint')}</p>
          </div>
        ) : (
          <StarredList folders={starred.data.folders} files={files} onOpenFile={(file) => viewed.open(file.id)} />
        )}
      </section>
      {viewed.fileId !== null && files.some((file) => file.id === viewed.fileId) && (
        <Viewer files={files} fileId={viewed.fileId} source={signedInFileSource} onMove={viewed.move} onClose={viewed.close} />
      )}
    </>
  );
}

function StarredList({ folders, files, onOpenFile }: { folders: Folder[]; files: FileItem[]; onOpenFile: (file: FileItem) => void }) {
  const { t, i18n } = useTranslation();
  const formatSize = useFormatSize();
  const toggle = useStarToggle();
  const unstar = (item: StarRef, name: string) =>
    toggle.mutate(
      { items: [item], starred: false },
      {
        onSuccess: () => notify.success('starred.unstarred', { values: { name } }),
        onError: (error) => notify.error('starred.unstarFailed', { error }),
      },
    );
  const unstarButton = (item: StarRef, name: string) => (
    <Button variant="ghost" size="sm" onClick={() => unstar(item, name)} aria-label={t('starred.unstarNamed', { name })}>
      <Star aria-hidden="true" className="size-4 fill-amber-400 text-amber-500" />
    </Button>
  );
  const modified = (iso: string) => t('starred.modified', { date: formatDay(iso, i18n.language) });

  return (
    <ul aria-label={t('starred.listLabel')} className="divide-y divide-line">
      {folders.map((folder) => (
        <li key={`folder:${folder.id}`} aria-label={folder.name} className="flex items-center gap-3 px-3 py-2.5 sm:px-5">
          <FolderIcon size="md" />
          <Link to={folderHref(folder.id)} className="focus-ring min-w-0 flex-1 rounded-md py-1">
            <span
              className="block truncate text-sm font-semibold text-ink hover:text-brand-600 dark:hover:text-brand-300"
              title={folder.name}
            >
              {folder.name}
            </span>
            <span className="block text-xs text-ink-muted">
              {t('starred.folder')} · {modified(folder.updatedAt)}
            </span>
          </Link>
          {unstarButton({ kind: 'folder', id: folder.id }, folder.name)}
        </li>
      ))}
      {files.map((file) => (
        <li key={`file:${file.id}`} aria-label={file.originalName} className="flex items-center gap-3 px-3 py-2.5 sm:px-5">
          <span className="relative shrink-0">
            <FileIcon mimetype={file.mimetype} name={file.originalName} size="md" />
            <ThumbnailImage source={signedInFileSource} file={file} className="absolute inset-0 size-full rounded-xl" />
          </span>
          <div className="min-w-0 flex-1 py-1">
            {/* The button's name holds all of its visible text (label in name); the details sit beside it. */}
            <button
              type="button"
              data-file-id={file.id}
              onClick={() => onOpenFile(file)}
              aria-label={t('viewer.openNamed', { name: file.originalName })}
              className="focus-ring block max-w-full rounded-md text-left"
            >
              <span
                className="block truncate text-sm font-semibold text-ink hover:text-brand-600 dark:hover:text-brand-300"
                title={file.originalName}
              >
                {file.originalName}
              </span>
            </button>
            <span className="block text-xs text-ink-muted">
              {formatSize(file.size)} · {modified(file.updatedAt)}
            </span>
          </div>
          {unstarButton({ kind: 'file', id: file.id }, file.originalName)}
        </li>
      ))}
    </ul>
  );
}
