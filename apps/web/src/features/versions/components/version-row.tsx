import { Download, RotateCcw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileVersion } from '@cloudvault/contract/versions';
import { Button } from '../../../components/ui/button';
import { useFormatSize } from '../../../lib/format-size';

interface VersionRowProps {
  version: FileVersion;
  /** Another action of the history runs: the buttons wait. */
  disabled: boolean;
  restoring: boolean;
  deleting: boolean;
  onDownload: (version: FileVersion) => void;
  onRestore: (version: FileVersion) => void;
  onDelete: (version: FileVersion) => void;
}

/** One earlier version: when it was uploaded, its size, and Download, Restore, Delete (asked twice). */
export function VersionRow({ version, disabled, restoring, deleting, onDownload, onRestore, onDelete }: VersionRowProps) {
  const { t, i18n } = useTranslation();
  const formatSize = useFormatSize();
  const [confirming, setConfirming] = useState(false);
  const time = new Date(version.createdAt).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <li aria-label={t('versions.rowLabel', { time })} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
      <div className="min-w-40 flex-1">
        <p className="text-sm font-medium text-ink">
          <time dateTime={version.createdAt}>{time}</time>
        </p>
        <p className="text-xs text-ink-muted">{formatSize(version.size)}</p>
      </div>
      {confirming ? (
        <div role="group" aria-label={t('versions.confirmDelete')} className="flex flex-wrap items-center gap-2">
          <span className="text-sm text-ink">{t('versions.confirmDelete')}</span>
          <Button size="sm" variant="secondary" onClick={() => setConfirming(false)} disabled={deleting}>
            {t('ui.cancel')}
          </Button>
          <Button size="sm" variant="danger" onClick={() => onDelete(version)} loading={deleting}>
            {t('versions.delete')}
          </Button>
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-1.5">
          <Button size="sm" variant="ghost" onClick={() => onDownload(version)} disabled={disabled}>
            <Download aria-hidden="true" className="size-4" />
            {t('versions.download')}
          </Button>
          <Button size="sm" variant="secondary" onClick={() => onRestore(version)} loading={restoring} disabled={disabled}>
            {!restoring && <RotateCcw aria-hidden="true" className="size-4" />}
            {t('versions.restore')}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setConfirming(true)}
            disabled={disabled}
            aria-label={t('versions.deleteLabel', { time })}
            className="hover:bg-danger-soft hover:text-danger"
          >
            <Trash2 aria-hidden="true" className="size-4" />
            <span className="sr-only sm:not-sr-only">{t('versions.delete')}</span>
          </Button>
        </div>
      )}
    </li>
  );
}
