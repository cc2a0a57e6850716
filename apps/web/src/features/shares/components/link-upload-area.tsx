import { CircleAlert, CircleCheck, CloudUpload, RotateCcw, X } from 'lucide-react';
import { useId } from 'react';
import { useDropzone } from 'react-dropzone';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/ui/text-field';
import { cn } from '../../../lib/cn';
import { useFormatSize } from '../../../lib/format-size';
import { useLinkUploads, type LinkUploadEntry } from '../hooks/use-link-uploads';

/** The longest name a visitor may give; the server cleans it as it cleans any name. */
const UPLOADER_NAME_MAX = 100;

interface LinkUploadAreaProps {
  token: string;
  access: string | null;
  /** An edit link's open folder, where dropped files go; absent: the shared folder itself. */
  folderId?: string | null;
  maxFileSize?: number;
  onUploaded?: () => void;
  onLocked?: () => void;
}

/**
 * Where a visitor of an upload or edit link drops files (or picks them, of any size), with an
 * optional name, and sees what they sent in this visit: each file's progress, cancel, retry.
 */
export function LinkUploadArea({ token, access, folderId = null, maxFileSize, onUploaded, onLocked }: LinkUploadAreaProps) {
  const { t } = useTranslation();
  const formatSize = useFormatSize();
  const uploads = useLinkUploads({ token, access, maxFileSize, onUploaded, onLocked });
  const listId = useId();
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    multiple: true,
    onDrop: (accepted) => uploads.add(accepted, folderId),
  });

  return (
    <section aria-labelledby={`${listId}-title`} className="flex flex-col gap-4">
      <h2 id={`${listId}-title`} className="sr-only">
        {t('shares.request.sendTitle')}
      </h2>
      <TextField
        label={t('shares.request.yourName')}
        hint={t('shares.request.yourNameHint')}
        autoComplete="name"
        maxLength={UPLOADER_NAME_MAX}
        onChange={(event) => uploads.setUploaderName(event.target.value)}
      />
      {/* The chooser's input sits beside the zone, not inside its role=button (no control within a control). */}
      <input {...getInputProps({ 'aria-label': t('shares.request.choose'), 'aria-hidden': true })} />
      <div
        {...getRootProps({
          role: 'button',
          className: cn(
            'focus-ring flex min-h-44 cursor-pointer flex-col items-center justify-center rounded-card border-2 border-dashed px-6 py-8 text-center transition-colors',
            isDragActive
              ? 'border-brand-500 bg-brand-50 text-brand-700 dark:bg-brand-950/60 dark:text-brand-300'
              : 'border-line-strong hover:border-brand-400 hover:bg-brand-50/40 dark:hover:bg-brand-950/30',
          ),
        })}
      >
        <span className="grid size-14 place-items-center rounded-2xl bg-brand-50 text-brand-600 ring-1 ring-brand-100 ring-inset dark:bg-brand-950 dark:text-brand-300 dark:ring-brand-900">
          <CloudUpload aria-hidden="true" className="size-7" />
        </span>
        <span className="mt-4 text-base font-semibold text-ink">
          {isDragActive ? t('shares.request.dropNow') : t('shares.request.dropTitle')}
        </span>
        <span className="mt-1 text-sm text-ink-muted">
          {maxFileSize === undefined ? t('shares.request.anySize') : t('shares.request.maxSize', { size: formatSize(maxFileSize) })}
        </span>
      </div>
      {uploads.entries.length > 0 && (
        <div className="overflow-hidden rounded-card border border-line bg-surface">
          <h3 className="border-b border-line px-4 py-3 text-sm font-semibold text-ink">{t('shares.request.sentTitle')}</h3>
          <ul aria-label={t('shares.request.sentTitle')} className="divide-y divide-line">
            {uploads.entries.map((entry) => (
              <SentFile
                key={entry.id}
                entry={entry}
                maxFileSize={maxFileSize}
                onCancel={() => uploads.cancel(entry.id)}
                onRetry={() => uploads.retry(entry.id)}
              />
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

const percentOf = (entry: LinkUploadEntry) => (entry.size > 0 ? Math.min(100, Math.floor((entry.sent / entry.size) * 100)) : 0);

function SentFile({
  entry,
  maxFileSize,
  onCancel,
  onRetry,
}: {
  entry: LinkUploadEntry;
  maxFileSize?: number;
  onCancel: () => void;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  const formatSize = useFormatSize();
  const travelling = entry.status === 'queued' || entry.status === 'uploading';
  // A file over the plan's limit never left: sending it again would be refused the same way.
  const retryable = (entry.status === 'failed' && entry.error !== 'tooLarge') || entry.status === 'cancelled';
  const percent = percentOf(entry);

  let state;
  if (entry.status === 'done') {
    state = <p className="text-xs font-medium text-success">{t('shares.request.status.done')}</p>;
  } else if (entry.status === 'failed') {
    state = (
      <p role="alert" className="text-xs font-medium break-words text-danger">
        {t(`shares.request.errors.${entry.error ?? 'failed'}`, { size: maxFileSize === undefined ? '' : formatSize(maxFileSize) })}
      </p>
    );
  } else if (entry.status === 'cancelled') {
    state = <p className="text-xs text-ink-muted">{t('shares.request.status.cancelled')}</p>;
  } else if (entry.reconnecting) {
    state = (
      <p role="status" className="text-xs font-medium text-amber-700 dark:text-amber-300">
        {t('shares.request.status.reconnecting', { percent })}
      </p>
    );
  } else if (entry.status === 'queued') {
    state = <p className="text-xs text-ink-muted">{t('shares.request.status.queued')}</p>;
  } else {
    state = <p className="text-xs text-ink-muted tabular-nums">{t('shares.request.status.uploading', { percent })}</p>;
  }

  return (
    <li aria-label={entry.name} className="flex items-start gap-3 px-4 py-3">
      <span className="mt-0.5 shrink-0">
        {entry.status === 'done' ? (
          <CircleCheck aria-hidden="true" className="size-5 text-success" />
        ) : entry.status === 'failed' ? (
          <CircleAlert aria-hidden="true" className="size-5 text-danger" />
        ) : (
          <CloudUpload aria-hidden="true" className="size-5 text-ink-subtle" />
        )}
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-ink" title={entry.name}>
          {entry.name}
        </p>
        <p className="text-xs text-ink-muted">{formatSize(entry.size)}</p>
        {state}
        {entry.status === 'uploading' && (
          <div
            role="progressbar"
            aria-label={t('shares.request.progressLabel', { name: entry.name })}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="mt-2 h-1.5 overflow-hidden rounded-full bg-surface-muted"
          >
            <div className="h-full bg-brand-500 transition-[width] duration-300" style={{ width: `${percent}%` }} />
          </div>
        )}
      </div>
      {travelling && (
        <button
          type="button"
          onClick={onCancel}
          aria-label={t('shares.request.cancelNamed', { name: entry.name })}
          title={t('shares.request.cancel')}
          className="focus-ring grid size-9 shrink-0 place-items-center rounded-lg text-ink-subtle transition-colors hover:bg-surface-muted hover:text-ink"
        >
          <X aria-hidden="true" className="size-4.5" />
        </button>
      )}
      {retryable && (
        <button
          type="button"
          onClick={onRetry}
          aria-label={t('shares.request.retryNamed', { name: entry.name })}
          title={t('shares.request.retry')}
          className="focus-ring grid size-9 shrink-0 place-items-center rounded-lg text-ink-subtle transition-colors hover:bg-surface-muted hover:text-ink"
        >
          <RotateCcw aria-hidden="true" className="size-4.5" />
        </button>
      )}
    </li>
  );
}
