import { ArrowLeft, TriangleAlert, type LucideIcon } from 'lucide-react';
import type { ComponentType, ReactNode } from 'react';
import { Link } from 'react-router';
import type { FileItem } from '@cloudvault/contract/files';
import { useViewedFile, useViewerClosed } from '../../hooks/use-viewed-file';
import { signedInFileSource, type FileViewerProps } from '../../lib/file-source';
import { Button } from './button';
import { EmptyPanel } from './empty-panel';
import { NotSavedOffline } from './not-saved-offline';
import { PageTitle } from './page-title';
import { Spinner } from './spinner';

/** The texts an ItemListPage shows, each page keeping them under its own locale section. */
export type ItemListPageText = 'pageTitle' | 'back' | 'title' | 'subtitle' | 'loading' | 'loadFailed' | 'retry' | 'empty' | 'emptyHint';

interface ItemListPageProps {
  /** Gives one of the page's texts, translated from the page's own locale section. */
  text: (key: ItemListPageText) => string;
  /** The empty state's picture. */
  emptyIcon: LucideIcon;
  /** The query behind the list (TanStack Query's fields). */
  query: { isPending: boolean; isPaused: boolean; isError: boolean; refetch: () => unknown };
  isEmpty: boolean;
  /** The files the viewer moves between (arrows, swipes). */
  files: FileItem[];
  viewer: ComponentType<FileViewerProps>;
  /** The list, given the way to open one of its files in the viewer. */
  children: (openFile: (file: FileItem) => void) => ReactNode;
}

/** Gives the focus back to a file's row once the viewer it was opened in closes. */
function focusFileRow(fileId: string): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-file-id="${CSS.escape(fileId)}"]`)?.focus());
}

/**
 * A page listing items from across the drive (Starred, Recent): a way back to My Files, a
 * heading, the loading, failed and empty states, and the viewer for the list's files.
 */
export function ItemListPage({ text, emptyIcon: EmptyIcon, query, isEmpty, files, viewer: Viewer, children }: ItemListPageProps) {
  const viewed = useViewedFile();
  useViewerClosed(viewed.fileId, focusFileRow);

  return (
    <>
      <PageTitle title={text('pageTitle')} />
      <Link
        to="/dashboard"
        className="focus-ring -ml-1 inline-flex items-center gap-1 rounded-md px-1 text-sm font-medium text-ink-muted hover:text-ink"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {text('back')}
      </Link>
      <h1 className="mt-2 text-2xl font-bold tracking-tight text-ink sm:text-3xl">{text('title')}</h1>
      <p className="mt-1.5 max-w-2xl text-sm text-ink-muted">{text('subtitle')}</p>
      <section className="mt-6 overflow-hidden rounded-card border border-line bg-surface shadow-card">
        {query.isPending && query.isPaused ? (
          <NotSavedOffline />
        ) : query.isPending ? (
          <div role="status" className="flex min-h-48 flex-col items-center justify-center gap-3 text-sm text-ink-muted">
            <Spinner className="size-7 text-brand-600 dark:text-brand-400" />
            {text('loading')}
          </div>
        ) : query.isError ? (
          <div role="alert" className="flex min-h-48 flex-col items-center justify-center gap-3 px-6 py-12 text-center">
            <TriangleAlert aria-hidden="true" className="size-7 text-danger" />
            <p className="text-base font-semibold text-ink">{text('loadFailed')}</p>
            <Button variant="secondary" onClick={() => void query.refetch()}>
              {text('retry')}
            </Button>
          </div>
        ) : isEmpty ? (
          <EmptyPanel icon={EmptyIcon} title={text('empty')} hint={text('emptyHint')} />
        ) : (
          children((file) => viewed.open(file.id))
        )}
      </section>
      {viewed.fileId !== null && files.some((file) => file.id === viewed.fileId) && (
        <Viewer files={files} fileId={viewed.fileId} source={signedInFileSource} onMove={viewed.move} onClose={viewed.close} />
      )}
    </>
  );
}
