import { Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { PublicShare } from '@cloudvault/contract/shares';
import { buttonClasses } from '../../../components/ui/button';
import { FileIcon } from '../../../components/ui/file-icon';
import { cn } from '../../../lib/cn';
import { useFormatSize } from '../../../lib/format-size';
import { publicDownloadHref } from '../public-links';
import { ShareFacts } from './share-facts';

/** A shared file: its name, size, owner and expiry, and a Download the browser streams to disk. */
export function PublicFileCard({ token, share, access }: { token: string; share: PublicShare; access: string | null }) {
  const { t } = useTranslation();
  const formatSize = useFormatSize();
  const size = share.size === undefined ? share.sizeFormatted : formatSize(share.size);
  return (
    <article className="mx-auto w-full max-w-xl rounded-card border border-line bg-surface p-6 shadow-card sm:p-8">
      <div className="flex items-start gap-4">
        <FileIcon mimetype={share.mimetype ?? ''} name={share.name} size="lg" />
        <div className="min-w-0 flex-1">
          <p className="text-xs font-semibold tracking-wide text-brand-600 uppercase dark:text-brand-300">{t('shares.public.fileKicker')}</p>
          <h1 className="mt-1 text-xl font-bold tracking-tight break-words text-ink sm:text-2xl">{share.name}</h1>
          {size && <p className="mt-1 text-sm text-ink-muted">{size}</p>}
        </div>
      </div>
      <div className="mt-5 border-t border-line pt-5">
        <ShareFacts share={share} />
      </div>
      {/* A plain link: the browser downloads natively, with progress and resume. */}
      <a href={publicDownloadHref(token, { access })} download className={cn(buttonClasses({ size: 'lg', fullWidth: true }), 'mt-6')}>
        <Download aria-hidden="true" className="size-5" />
        {t('shares.public.download')}
      </a>
    </article>
  );
}
