import { Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { FileIcon } from '../../../components/ui/file-icon';
import type { ViewableFile } from '../../../lib/file-source';
import { useFormatSize } from '../../../lib/format-size';

/** A file the browser cannot show safely: what it is, and Download (unless downloads are off). */
export function CardView({ file, onDownload }: { file: ViewableFile; onDownload?: () => void }) {
  const { t } = useTranslation();
  const formatSize = useFormatSize();
  return (
    <div className="flex size-full items-center justify-center p-4">
      <div className="w-full max-w-sm rounded-card border border-line bg-surface p-6 text-center text-ink shadow-popover">
        <div className="flex justify-center">
          <FileIcon mimetype={file.mimetype} name={file.originalName} size="lg" />
        </div>
        <p className="mt-4 text-base font-semibold break-words">{file.originalName}</p>
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-left text-sm">
          <dt className="text-ink-muted">{t('viewer.card.size')}</dt>
          <dd className="text-right tabular-nums">{formatSize(file.size)}</dd>
          <dt className="text-ink-muted">{t('viewer.card.type')}</dt>
          <dd className="truncate text-right" title={file.mimetype}>
            {file.mimetype}
          </dd>
        </dl>
        <p className="mt-4 text-sm text-ink-muted">{t('viewer.card.noPreview')}</p>
        {onDownload && (
          <Button className="mt-5" fullWidth onClick={onDownload}>
            <Download aria-hidden="true" className="size-4" />
            {t('viewer.download')}
          </Button>
        )}
      </div>
    </div>
  );
}
