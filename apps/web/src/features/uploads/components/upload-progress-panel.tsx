import { ChevronDown, ChevronUp, CircleAlert, CircleCheck, CloudOff, CloudUpload, FolderSearch, Pause, Play, X } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePlans } from '../../../hooks/use-plans';
import { useSession } from '../../../hooks/use-session';
import { useUploadConfig } from '../../../hooks/use-upload-config';
import { getToken } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { useFormatSize } from '../../../lib/format-size';
import { useUploadEntries } from '../hooks/use-uploads';
import { uploadConcurrency } from '../upload-limits';
import type { UploadEntry } from '../upload-queue';
import { restoreUnfinishedUploads, uploadQueue } from '../upload-store';
import { NameClashHost } from './name-clash-dialog';
import { remainingTimeText, speedText } from '../upload-text';

const percentOf = (loaded: number, size: number) => (size > 0 ? Math.min(100, Math.round((loaded / size) * 100)) : 0);

function entryPercent(entry: UploadEntry): number {
  return entry.status === 'success' ? 100 : percentOf(entry.loaded, entry.size);
}

/**
 * The floating panel, bottom right (docs/product.md#uploads, Upload progress panel): every queued,
 * running, completed (for 3 s) and failed upload, with the overall percent. Lives in the
 * signed-in layout so uploads stay visible on every page.
 */
export function UploadProgressPanel() {
  const { t } = useTranslation();
  const entries = useUploadEntries();
  const { data: config } = useUploadConfig();
  const { data: plans } = usePlans();
  const { user } = useSession();
  const [minimized, setMinimized] = useState(false);
  const userId = user?.id;

  // Uploads an earlier page left unfinished get a row each, waiting for their file.
  useEffect(() => {
    if (userId) void restoreUnfinishedUploads(userId);
  }, [userId]);

  // The queue runs as many uploads at once as the plan allows (the catalogue says how many).
  useEffect(() => {
    if (config) uploadQueue.setConcurrency(uploadConcurrency(plans, config.userPlan));
  }, [config, plans]);

  // Signing out ends the uploads of that session (resumable ones wait for the next sign-in).
  useEffect(
    () => () => {
      if (!getToken()) uploadQueue.abandon();
    },
    [],
  );

  // The clash dialog of uploads and moves lives here, in the signed-in layout, on every page.
  if (entries.length === 0) return <NameClashHost />;

  const totalSize = entries.reduce((sum, entry) => sum + entry.size, 0);
  const totalLoaded = entries.reduce((sum, entry) => sum + (entry.status === 'success' ? entry.size : entry.loaded), 0);
  const allDone = entries.every((entry) => entry.status === 'success');
  const overall = totalSize > 0 ? percentOf(totalLoaded, totalSize) : allDone ? 100 : 0;
  const hasErrors = entries.some((entry) => entry.status === 'error');

  return (
    <>
      <NameClashHost />
      <section
        aria-label={t('uploads.panel.label')}
        // On a phone the toasts stack above this panel, never over its buttons (app/layouts/toast-stack.tsx).
        data-toast-floor
        className="cv-pop-in fixed right-3 bottom-[calc(0.75rem+env(safe-area-inset-bottom))] z-50 flex w-[min(24rem,calc(100vw-1.5rem))] flex-col overflow-hidden rounded-card border border-line bg-surface shadow-popover sm:right-5 sm:bottom-5"
      >
        <header className="flex items-center gap-3 border-b border-line px-4 py-3">
          <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-brand-50 text-brand-600 dark:bg-brand-950 dark:text-brand-300">
            <CloudUpload aria-hidden="true" className="size-4.5" />
          </span>
          <div className="min-w-0 flex-1">
            <h2 className="truncate text-sm font-semibold text-ink">{t('uploads.panel.title', { count: entries.length })}</h2>
            <p className="text-xs text-ink-muted" aria-live="polite">
              {t('uploads.panel.overall', { percent: overall })}
            </p>
          </div>
          <button
            type="button"
            onClick={() => setMinimized((value) => !value)}
            aria-label={minimized ? t('uploads.panel.expand') : t('uploads.panel.minimize')}
            aria-expanded={!minimized}
            className="focus-ring grid size-8 place-items-center rounded-lg text-ink-subtle transition-colors hover:bg-surface-muted hover:text-ink"
          >
            {minimized ? <ChevronUp aria-hidden="true" className="size-4.5" /> : <ChevronDown aria-hidden="true" className="size-4.5" />}
          </button>
          <button
            type="button"
            onClick={() => uploadQueue.clear()}
            aria-label={t('uploads.panel.closeAll')}
            className="focus-ring grid size-8 place-items-center rounded-lg text-ink-subtle transition-colors hover:bg-surface-muted hover:text-ink"
          >
            <X aria-hidden="true" className="size-4.5" />
          </button>
        </header>
        <div
          role="progressbar"
          aria-label={t('uploads.panel.overallLabel')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={overall}
          className="h-1 bg-surface-muted"
        >
          <div
            className={cn('h-full transition-[width] duration-300', hasErrors ? 'bg-danger' : allDone ? 'bg-success' : 'bg-brand-500')}
            style={{ width: `${overall}%` }}
          />
        </div>
        {!minimized && (
          <ul className="max-h-80 divide-y divide-line overflow-y-auto">
            {entries.map((entry) => (
              <UploadRow key={entry.id} entry={entry} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function UploadRow({ entry }: { entry: UploadEntry }) {
  const { t } = useTranslation();
  const formatSize = useFormatSize();
  const percent = entryPercent(entry);
  const details = [formatSize(entry.size)];
  if (entry.status === 'uploading' || entry.status === 'paused') details.push(t('uploads.panel.percent', { percent }));
  if (entry.status === 'uploading' && !entry.reconnecting) {
    const speed = speedText(t, formatSize, entry.speed);
    if (speed) details.push(speed);
    const remaining = remainingTimeText(t, entry.remainingSeconds);
    if (remaining) details.push(remaining);
  }
  const travelling = entry.status === 'uploading' || entry.status === 'queued' || entry.status === 'paused';

  return (
    <li aria-label={entry.name} className="flex items-start gap-3 px-4 py-3">
      <span className="mt-0.5 shrink-0">
        <RowIcon entry={entry} />
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-ink" title={entry.name}>
          {entry.name}
        </p>
        {entry.status === 'success' ? (
          <p className="text-xs font-medium text-success">{t('uploads.panel.complete')}</p>
        ) : entry.status === 'error' ? (
          <p role="alert" className="text-xs font-medium break-words text-danger">
            {entry.error ?? t('uploads.panel.failed')}
          </p>
        ) : entry.status === 'queued' ? (
          <p className="text-xs text-ink-muted">
            {formatSize(entry.size)} · {t('uploads.panel.waiting')}
          </p>
        ) : entry.status === 'needs-file' ? (
          <PickAgain entry={entry} />
        ) : (
          <>
            <p className="text-xs text-ink-muted tabular-nums">{details.join(' · ')}</p>
            {entry.status === 'paused' ? (
              <p className="text-xs font-medium text-ink-muted">{t('uploads.panel.paused')}</p>
            ) : entry.reconnecting ? (
              <p role="status" className="text-xs font-medium text-amber-700 dark:text-amber-300">
                {t('uploads.panel.reconnecting')}
              </p>
            ) : null}
          </>
        )}
        {travelling && (
          <div className="mt-2 h-1.5 overflow-hidden rounded-full bg-surface-muted">
            <div
              className={cn(
                'h-full rounded-full transition-[width] duration-200',
                entry.status === 'paused' || entry.reconnecting ? 'bg-ink-subtle' : 'bg-brand-500',
              )}
              style={{ width: `${percent}%` }}
            />
          </div>
        )}
      </div>
      {entry.resumable && (entry.status === 'uploading' || entry.status === 'queued') && (
        <RowButton label={t('uploads.panel.pause')} onClick={() => uploadQueue.pause(entry.id)}>
          <Pause aria-hidden="true" className="size-4" />
        </RowButton>
      )}
      {entry.status === 'paused' && (
        <RowButton label={t('uploads.panel.resume')} onClick={() => uploadQueue.resume(entry.id)}>
          <Play aria-hidden="true" className="size-4" />
        </RowButton>
      )}
      {entry.status === 'error' ? (
        <RowButton label={t('uploads.panel.dismiss')} onClick={() => uploadQueue.dismiss(entry.id)}>
          <X aria-hidden="true" className="size-4" />
        </RowButton>
      ) : entry.status !== 'success' ? (
        <RowButton label={t('uploads.panel.cancel')} onClick={() => uploadQueue.cancel(entry.id)}>
          <X aria-hidden="true" className="size-4" />
        </RowButton>
      ) : null}
    </li>
  );
}

function RowIcon({ entry }: { entry: UploadEntry }) {
  if (entry.status === 'success') return <CircleCheck aria-hidden="true" className="size-4.5 text-success" />;
  if (entry.status === 'error') return <CircleAlert aria-hidden="true" className="size-4.5 text-danger" />;
  if (entry.status === 'paused' || entry.status === 'needs-file') return <Pause aria-hidden="true" className="size-4.5 text-ink-subtle" />;
  if (entry.reconnecting) return <CloudOff aria-hidden="true" className="size-4.5 text-amber-600 dark:text-amber-400" />;
  return <CloudUpload aria-hidden="true" className="size-4.5 text-brand-500" />;
}

function RowButton({ label, onClick, children }: { label: string; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      title={label}
      className="focus-ring -mr-1 grid size-7 shrink-0 place-items-center rounded-md text-ink-subtle hover:bg-surface-muted hover:text-ink"
    >
      {children}
    </button>
  );
}

/**
 * A row restored after a reload: the browser no longer has the file, so the user picks it
 * again; the same name and size resume it from the server's offset, anything else is refused.
 */
function PickAgain({ entry }: { entry: UploadEntry }) {
  const { t } = useTranslation();
  const formatSize = useFormatSize();
  const input = useRef<HTMLInputElement>(null);
  const [wrongFile, setWrongFile] = useState<string | null>(null);

  return (
    <>
      <p className="text-xs text-ink-muted">
        {formatSize(entry.size)} · {t('uploads.panel.interrupted')}
      </p>
      {wrongFile !== null && (
        <p role="alert" className="text-xs font-medium break-words text-danger">
          {t('uploads.panel.wrongFile', { picked: wrongFile, file: entry.name, size: formatSize(entry.size) })}
        </p>
      )}
      <button
        type="button"
        onClick={() => input.current?.click()}
        aria-label={t('uploads.panel.pickAgainLabel', { file: entry.name })}
        className="focus-ring mt-1.5 inline-flex items-center gap-1.5 rounded-md bg-brand-50 px-2 py-1 text-xs font-semibold text-brand-700 hover:bg-brand-100 dark:bg-brand-950 dark:text-brand-300 dark:hover:bg-brand-900"
      >
        <FolderSearch aria-hidden="true" className="size-3.5" />
        {t('uploads.panel.pickAgain')}
      </button>
      <input
        ref={input}
        type="file"
        hidden
        tabIndex={-1}
        onChange={(event) => {
          const picked = event.target.files?.[0];
          event.target.value = '';
          if (!picked) return;
          setWrongFile(uploadQueue.provideFile(entry.id, picked) ? null : picked.name);
        }}
      />
    </>
  );
}
