import { Download, FolderX, TriangleAlert } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { PublicShare } from '@cloudvault/contract/shares';
import { Button, buttonClasses } from '../../../components/ui/button';
import { FolderIcon } from '../../../components/ui/file-icon';
import { useViewedFile, useViewerClosed } from '../../../hooks/use-viewed-file';
import { ApiError } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { shareKeys } from '../../../lib/query-keys';
import { usePublicItems } from '../api/get-public-items';
import { needsPassword } from '../api/get-public-share';
import { focusFileRow } from '../focus-file-row';
import { publicFileSource } from '../public-file-source';
import { publicDownloadHref } from '../public-links';
import type { ViewerSlot } from '../slots';
import { CrumbTrail } from './crumb-trail';
import { LinkUploadArea } from './link-upload-area';
import { LoadingState, Notice } from './page-states';
import { ReadOnlyItems } from './read-only-items';
import { ShareFacts } from './share-facts';
import { ViewOnlyNote } from './view-only-note';

interface PublicFolderViewProps {
  token: string;
  share: PublicShare;
  access: string | null;
  /** The access grant stopped working while browsing: ask for the password again. */
  onLocked: () => void;
  /** A download began (the link may have reached its download limit with it). */
  onDownload: () => void;
  viewer: ViewerSlot;
}

/**
 * A shared folder for a visitor: read-only browsing (the open folder lives in the address,
 * `?folder=<id>`), each file in the viewer (`&view=<id>`) and its download, and
 * 'Download all' as one zip. A view-only link shows and draws but offers no download; an
 * edit link adds the upload area of a file request.
 */
export function PublicFolderView({ token, share, access, onLocked, onDownload, viewer: Viewer }: PublicFolderViewProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const folderId = params.get('folder');
  const items = usePublicItems(token, folderId, access);
  const href = (id: string | null) => (id && id !== share.folderId ? `/s/${token}?folder=${encodeURIComponent(id)}` : `/s/${token}`);
  const locked = needsPassword(items.error);
  const viewOnly = share.role === 'view-only';
  const source = useMemo(() => publicFileSource(token, access, 'folder', viewOnly), [token, access, viewOnly]);
  const queryClient = useQueryClient();
  // What a visitor sends through an edit link joins the listing as it lands.
  const onUploaded = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: shareKeys.publicShare(token, access) }),
    [queryClient, token, access],
  );
  const viewed = useViewedFile();
  useViewerClosed(viewed.fileId, focusFileRow);

  useEffect(() => {
    if (locked) onLocked();
  }, [locked, onLocked]);

  let content;
  if (items.error instanceof ApiError && items.error.status === 404) {
    content = (
      <Notice alert icon={<FolderX aria-hidden="true" className="size-7" />} title={t('shares.public.folderMissing')}>
        <Link to={href(null)} className={buttonClasses({ variant: 'secondary' })}>
          {t('shares.public.backToTop')}
        </Link>
      </Notice>
    );
  } else if (items.isError && !locked) {
    content = (
      <Notice alert icon={<TriangleAlert aria-hidden="true" className="size-7 text-danger" />} title={t('shares.public.loadFailed')}>
        <Button variant="secondary" onClick={() => void items.refetch()}>
          {t('shares.retry')}
        </Button>
      </Notice>
    );
  } else if (!items.data) {
    content = <LoadingState label={t('shares.browse.loading')} />;
  } else {
    content = (
      <ReadOnlyItems
        folders={items.data.folders}
        files={items.data.files}
        folderHref={(folder) => href(folder.id)}
        source={source}
        onOpenFile={(file) => viewed.open(file.id)}
        fileAction={(file) =>
          !viewOnly && (
            <a
              href={publicDownloadHref(token, { fileId: file.id, access })}
              download
              onClick={onDownload}
              aria-label={t('shares.browse.downloadNamed', { name: file.originalName })}
              title={t('shares.public.download')}
              className={cn(buttonClasses({ variant: 'ghost', size: 'sm' }))}
            >
              <Download aria-hidden="true" className="size-4" />
            </a>
          )
        }
      />
    );
  }

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-5">
      <header className="flex flex-col gap-4 rounded-card border border-line bg-surface p-5 shadow-card sm:flex-row sm:items-center sm:p-6">
        <FolderIcon size="lg" />
        <div className="min-w-0 flex-1">
          <p className="text-xs font-semibold tracking-wide text-brand-600 uppercase dark:text-brand-300">
            {t('shares.public.folderKicker')}
          </p>
          <h1 className="mt-1 text-xl font-bold tracking-tight break-words text-ink sm:text-2xl">{share.name}</h1>
          <div className="mt-2">
            <ShareFacts share={share} />
          </div>
          {viewOnly && (
            <div className="mt-3">
              <ViewOnlyNote />
            </div>
          )}
        </div>
        {!viewOnly && (
          <a href={publicDownloadHref(token, { access })} download onClick={onDownload} className={cn(buttonClasses(), 'shrink-0')}>
            <Download aria-hidden="true" className="size-4" />
            {t('shares.public.downloadAll')}
          </a>
        )}
      </header>
      {share.role === 'edit' && (
        <div className="rounded-card border border-line bg-surface p-5 shadow-card sm:p-6">
          <LinkUploadArea
            token={token}
            access={access}
            folderId={folderId}
            maxFileSize={share.maxFileSize ?? undefined}
            onUploaded={onUploaded}
            onLocked={onLocked}
          />
        </div>
      )}
      <section className="overflow-hidden rounded-card border border-line bg-surface shadow-card">
        <div className="border-b border-line px-3 py-3 sm:px-5">
          <CrumbTrail
            crumbs={(items.data?.path ?? [{ id: share.folderId ?? 'top', name: share.name }]).map((folder) => ({
              key: folder.id,
              name: folder.name,
              href: href(folder.id),
            }))}
          />
        </div>
        {content}
      </section>
      {viewed.fileId !== null && items.data && (
        <Viewer files={items.data.files} fileId={viewed.fileId} source={source} onMove={viewed.move} onClose={viewed.close} />
      )}
    </div>
  );
}
