import { Download, Eye } from 'lucide-react';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { PublicShare } from '@cloudvault/contract/shares';
import { buttonClasses } from '../../../components/ui/button';
import { FileIcon } from '../../../components/ui/file-icon';
import { ThumbnailImage } from '../../../components/ui/thumbnail-image';
import { useViewedFile, useViewerClosed } from '../../../hooks/use-viewed-file';
import { cn } from '../../../lib/cn';
import { hasThumbnail } from '../../../lib/file-source';
import { useFormatSize } from '../../../lib/format-size';
import { publicFileSource, sharedFile, SHARED_FILE_ID } from '../public-file-source';
import { publicDownloadHref } from '../public-links';
import type { ViewerSlot } from '../slots';
import { ShareFacts } from './share-facts';
import { ViewOnlyNote } from './view-only-note';

interface PublicFileCardProps {
  token: string;
  share: PublicShare;
  access: string | null;
  viewer: ViewerSlot;
  /** A download began (the link may have reached its download limit with it). */
  onDownload: () => void;
}

/**
 * A shared file: its picture when it has one, name, size, owner and expiry, View (the
 * full-screen viewer, `?view=file`) and a Download the browser streams to disk; a view-only
 * link has View alone, and says that a screen can still be captured.
 */
export function PublicFileCard({ token, share, access, viewer: Viewer, onDownload }: PublicFileCardProps) {
  const { t } = useTranslation();
  const formatSize = useFormatSize();
  const size = share.size === undefined ? share.sizeFormatted : formatSize(share.size);
  const file = useMemo(() => sharedFile(share), [share]);
  const files = useMemo(() => [file], [file]);
  const viewOnly = share.role === 'view-only';
  const source = useMemo(() => publicFileSource(token, access, 'file', viewOnly), [token, access, viewOnly]);
  const viewed = useViewedFile();
  const viewButton = useRef<HTMLButtonElement>(null);
  useViewerClosed(viewed.fileId, () => viewButton.current?.focus());

  return (
    <article className="mx-auto w-full max-w-xl rounded-card border border-line bg-surface p-6 shadow-card sm:p-8">
      {hasThumbnail(file) && (
        // The picture opens the viewer too; the View button is the keyboard's way there.
        <button
          type="button"
          tabIndex={-1}
          aria-hidden="true"
          onClick={() => viewed.open(SHARED_FILE_ID)}
          className="relative mb-5 block aspect-[4/3] w-full overflow-hidden rounded-xl bg-surface-muted"
        >
          <span className="absolute inset-0 grid place-items-center">
            <FileIcon mimetype={file.mimetype} name={file.originalName} size="lg" />
          </span>
          <ThumbnailImage source={source} file={file} size="large" className="absolute inset-0 size-full object-contain" />
        </button>
      )}
      <div className="flex items-start gap-4">
        <FileIcon mimetype={share.mimetype ?? ''} name={share.name} size="lg" />
        <div className="min-w-0 flex-1">
          <p className="text-xs font-semibold tracking-wide text-brand-600 uppercase dark:text-brand-300">
            {t('shares.public.fileKicker')}
          </p>
          <h1 className="mt-1 text-xl font-bold tracking-tight break-words text-ink sm:text-2xl">{share.name}</h1>
          {size && <p className="mt-1 text-sm text-ink-muted">{size}</p>}
        </div>
      </div>
      <div className="mt-5 border-t border-line pt-5">
        <ShareFacts share={share} />
        {viewOnly && (
          <div className="mt-4">
            <ViewOnlyNote />
          </div>
        )}
      </div>
      <div className="mt-6 flex flex-col gap-2 sm:flex-row">
        <button
          ref={viewButton}
          type="button"
          onClick={() => viewed.open(SHARED_FILE_ID)}
          className={cn(buttonClasses({ size: 'lg', variant: 'secondary' }), 'flex-1')}
        >
          <Eye aria-hidden="true" className="size-5" />
          {t('viewer.open')}
        </button>
        {/* A plain link: the browser downloads natively, with progress and resume. */}
        {!viewOnly && (
          <a
            href={publicDownloadHref(token, { access })}
            download
            onClick={onDownload}
            className={cn(buttonClasses({ size: 'lg' }), 'flex-1')}
          >
            <Download aria-hidden="true" className="size-5" />
            {t('shares.public.download')}
          </a>
        )}
      </div>
      {viewed.fileId !== null && (
        <Viewer files={files} fileId={SHARED_FILE_ID} source={source} onMove={viewed.move} onClose={viewed.close} />
      )}
    </article>
  );
}
