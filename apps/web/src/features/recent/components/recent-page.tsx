import { ArrowLeft, Clock, FolderOpen, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { FileItem } from '@cloudvault/contract/files';
import type { Folder } from '@cloudvault/contract/folders';
import { Button } from '../../../components/ui/button';
import { FileIcon } from '../../../components/ui/file-icon';
import { PageTitle } from '../../../components/ui/page-title';
import { Spinner } from '../../../components/ui/spinner';
import { ThumbnailImage } from '../../../components/ui/thumbnail-image';
import { useViewedFile, useViewerClosed } from '../../../hooks/use-viewed-file';
import { formatDay } from '../../../lib/dates';
import { signedInFileSource } from '../../../lib/file-source';
import { folderHref } from '../../../lib/folder-href';
import { useFormatSize } from '../../../lib/format-size';
import { useRecent } from '../api/get-recent';
import type { ViewerSlot } from '../slots';

/** Gives the focus back to a file's row once the viewer it was opened in closes. */
function focusFileRow(fileId: string): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-file-id="${CSS.escape(fileId)}"]`)?.focus());
}

/**
 * /recent: the files the user opened, uploaded or changed lately, across folders, newest
 * first (docs/decisions/0052-starred-and-recent.md); each opens in the viewer and says
 * which folder it is in, with a link there.
 */
export function RecentPage({ viewer: Viewer }: { viewer: ViewerSlot }) {
  const { t } = useTranslation();
  const recent = useRecent();
  const viewed = useViewedFile();
  useViewerClosed(viewed.fileId, focusFileRow);
  const files = recent.data?.files ?? [];

  return (
    <>
      <PageTitle title={t('recent.pageTitle')} />
      <Link
        to="/dashboard"
        className="focus-ring -ml-1 inline-flex items-center gap-1 rounded-md px-1 text-sm font-medium text-ink-muted hover:text-ink"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {t('recent.back')}
      </Link>
      <h1 className="mt-2 text-2xl font-bold tracking-tight text-ink sm:text-3xl">{t('recent.title')}</h1>
      <p className="mt-1.5 max-w-2xl text-sm text-ink-muted">{t('recent.subtitle')}</p>
      <section className="mt-6 overflow-hidden rounded-card border border-line bg-surface shadow-card">
        {recent.isPending ? (
          <div role="status" className="flex min-h-48 flex-col items-center justify-center gap-3 text-sm text-ink-muted">
            <Spinner className="size-7 text-brand-600 dark:text-brand-400" />
            {t('recent.loading')}
          </div>
        ) : recent.isError ? (
          <div role="alert" className="flex min-h-48 flex-col items-center justify-center gap-3 px-6 py-12 text-center">
            <TriangleAlert aria-hidden="true" className="size-7 text-danger" />
            <p className="text-base font-semibold text-ink">{t('recent.loadFailed')}</p>
            <Button variant="secondary" onClick={() => void recent.refetch()}>
              {t('recent.retry')}
            </Button>
          </div>
        ) : files.length === 0 ? (
          <div className="flex min-h-48 flex-col items-center justify-center gap-3 px-6 py-12 text-center">
            <span className="grid size-14 place-items-center rounded-2xl bg-surface-muted text-ink-muted">
              <Clock aria-hidden="true" className="size-7" />
            </span>
            <h2 className="text-base font-semibold text-ink">{t('recent.empty')}</h2>
            <p className="max-w-sm text-sm text-ink-muted">{t('recent.emptyHint')}</p>
          </div>
        ) : (
          <RecentList files={files} folders={recent.data.folders} onOpenFile={(file) => viewed.open(file.id)} />
        )}
      </section>
      {viewed.fileId !== null && files.some((file) => file.id === viewed.fileId) && (
        <Viewer files={files} fileId={viewed.fileId} source={signedInFileSource} onMove={viewed.move} onClose={viewed.close} />
      )}
    </>
  );
}

function RecentList({ files, folders, onOpenFile }: { files: FileItem[]; folders: Folder[]; onOpenFile: (file: FileItem) => void }) {
  const { t, i18n } = useTranslation();
  const formatSize = useFormatSize();
  const folderNames = new Map(folders.map((folder) => [folder.id, folder.name]));
  const placeOf = (file: FileItem) =>
    file.folderId === null ? t('recent.myFiles') : (folderNames.get(file.folderId) ?? t('recent.aFolder'));

  return (
    <ul aria-label={t('recent.listLabel')} className="divide-y divide-line">
      {files.map((file) => (
        <li key={file.id} aria-label={file.originalName} className="flex items-center gap-3 px-3 py-2.5 sm:px-5">
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
            {/* Wraps on a phone rather than cutting off where the file is. */}
            <span className="block text-xs text-ink-muted">
              {formatSize(file.size)} · {t('recent.modified', { date: formatDay(file.updatedAt, i18n.language) })} ·{' '}
              {t('recent.inFolder', { folder: placeOf(file) })}
            </span>
          </div>
          <Link
            to={folderHref(file.folderId)}
            className="focus-ring inline-flex shrink-0 items-center gap-1.5 rounded-control px-2 py-1.5 text-xs font-medium text-ink-muted hover:bg-surface-muted hover:text-ink"
          >
            <FolderOpen aria-hidden="true" className="size-4" />
            <span className="hidden sm:inline">{t('recent.showInFolder')}</span>
            <span className="sr-only">
              <span className="sm:hidden">{t('recent.showInFolder')} </span>
              {file.originalName}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
