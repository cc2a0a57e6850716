import { useQueryClient } from '@tanstack/react-query';
import { Camera, CloudUpload, Files, FolderUp, HardDriveUpload, Sparkles } from 'lucide-react';
import { useRef, type ReactNode } from 'react';
import { useDropzone, type FileRejection } from 'react-dropzone';
import { useTranslation } from 'react-i18next';
import type { UploadConfig } from '@cloudvault/contract/files';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useUploadConfig } from '../../../hooks/use-upload-config';
import { cn } from '../../../lib/cn';
import { driveKeys } from '../../../lib/query-keys';
import { useFormatSize } from '../../../lib/format-size';
import { notify } from '../../../lib/notify';
import { chooseFolder } from '../choose-folder';
import { useUploading } from '../hooks/use-uploads';
import { planFromFiles } from '../upload-plan';
import { notifyTooLarge, startUploads } from '../upload-store';

/** The rejection texts of docs/product.md#uploads. */
function notifyRejection({ file, errors }: FileRejection, config: UploadConfig): void {
  const error = errors[0];
  if (error?.code === 'file-too-large') notifyTooLarge(file.name, config);
  else if (error?.code === 'file-invalid-type') notify.error('uploads.rejection.invalidType', { values: { file: file.name } });
  else notify.error('uploads.rejection.other', { values: { file: file.name, message: error?.message ?? '' } });
}

interface UploadZoneProps {
  /** Where the files go (null: home). */
  folderId: string | null;
  /** Called once files were accepted and queued (the Upload Files modal closes). */
  onStarted?: () => void;
}

/**
 * Drag-and-drop or click to browse, many files at once (docs/product.md#uploads, Upload zone). Disabled
 * while the settings load, while files upload, and when there are no settings (no token).
 */
export function UploadZone({ folderId, onStarted }: UploadZoneProps) {
  const { t } = useTranslation();
  const formatSize = useFormatSize();
  const { data: config, isLoading } = useUploadConfig();
  const uploading = useUploading();
  const disabled = !config || isLoading || uploading;
  const queryClient = useQueryClient();
  const cameraRef = useRef<HTMLInputElement>(null);

  /** A folder picked with its tree (`webkitRelativePath`), started as a dropped one is. */
  const onFolderPicked = (files: File[]) => {
    if (!config || files.length === 0) return;
    void startUploads(planFromFiles(files), folderId, config).then((created) => {
      // The folders it made are listed at once; the files join the listing as each lands.
      if (created > 0) void queryClient.invalidateQueries({ queryKey: driveKeys.all });
    });
    onStarted?.();
  };

  /** What the camera took: uploaded as chosen files are. */
  const onCameraTaken = (input: HTMLInputElement) => {
    const files = Array.from(input.files ?? []);
    // Emptied, so that the same photo's name taken again is a change too.
    input.value = '';
    if (!config || files.length === 0) return;
    void startUploads(planFromFiles(files), folderId, config);
    onStarted?.();
  };

  const { getRootProps, getInputProps, isDragAccept, isDragReject } = useDropzone({
    multiple: true,
    disabled,
    maxSize: config?.userMaxFileSize ?? undefined,
    onDrop: (accepted, rejections) => {
      if (!config) return;
      for (const rejection of rejections) notifyRejection(rejection, config);
      if (accepted.length === 0) return;
      void startUploads(planFromFiles(accepted), folderId, config);
      onStarted?.();
    },
  });

  let body;
  if (isLoading) {
    body = <State icon={<Spinner className="size-7" />} title={t('uploads.zone.loading')} />;
  } else if (uploading) {
    body = <State icon={<Spinner className="size-7" />} title={t('uploads.zone.uploading')} />;
  } else if (isDragReject) {
    body = <State icon={<HardDriveUpload aria-hidden="true" className="size-8" />} title={t('uploads.zone.dragReject')} />;
  } else if (isDragAccept) {
    body = <State icon={<CloudUpload aria-hidden="true" className="size-8" />} title={t('uploads.zone.dragAccept')} />;
  } else if (!config) {
    body = <State icon={<CloudUpload aria-hidden="true" className="size-8" />} title={t('uploads.zone.unavailable')} />;
  } else {
    body = (
      <>
        <span className="grid size-14 place-items-center rounded-2xl bg-brand-50 text-brand-600 ring-1 ring-brand-100 ring-inset dark:bg-brand-950 dark:text-brand-300 dark:ring-brand-900">
          <CloudUpload aria-hidden="true" className="size-7" />
        </span>
        <span className="mt-4 text-base font-semibold text-ink">{t('uploads.zone.idleTitle')}</span>
        <span className="mt-1 text-sm text-ink-muted">{t('uploads.zone.idleHint')}</span>
        <span className="mt-4 flex flex-wrap items-center justify-center gap-2 text-xs font-medium text-ink-muted">
          <span className="inline-flex items-center gap-1 rounded-full bg-surface-muted px-2.5 py-1">
            <Files aria-hidden="true" className="size-3.5" />
            {t('uploads.zone.multiple')}
          </span>
          <span className="rounded-full bg-surface-muted px-2.5 py-1">
            {config.userMaxFileSize === null
              ? t('uploads.zone.noMaxSize')
              : t('uploads.zone.maxSize', { size: formatSize(config.userMaxFileSize) })}
          </span>
          {config.userPlan !== 'FREE' && (
            <span className="inline-flex items-center gap-1 rounded-full bg-brand-50 px-2.5 py-1 text-brand-700 ring-1 ring-brand-200 ring-inset dark:bg-brand-950 dark:text-brand-300 dark:ring-brand-800">
              <Sparkles aria-hidden="true" className="size-3.5" />
              {t('uploads.zone.planBadge', { plan: t(`common.plans.${config.userPlan}`) })}
            </span>
          )}
        </span>
      </>
    );
  }

  return (
    <>
      {/* The file chooser's input sits beside the zone, not inside its role=button (no
          control within a control). The zone is the one way in for keyboard and assistive
          technology, so the input is out of the tab order and the accessibility tree; it still
          has a name for tools that list form fields. */}
      <input {...getInputProps({ 'aria-label': t('uploads.zone.label'), 'aria-hidden': true })} />
      <div
        {...getRootProps({
          // A button to assistive technology: Enter or Space opens the file chooser. Its name
          // is its visible text (label in name), so it says its state as it changes.
          role: 'button',
          'aria-disabled': disabled || undefined,
          className: cn(
            'focus-ring flex min-h-56 flex-col items-center justify-center rounded-card border-2 border-dashed px-6 py-8 text-center transition-colors',
            disabled
              ? 'cursor-default border-line bg-surface-muted/50'
              : 'cursor-pointer border-line-strong hover:border-brand-400 hover:bg-brand-50/40 dark:hover:bg-brand-950/30',
            isDragAccept && 'border-brand-500 bg-brand-50 text-brand-700 dark:bg-brand-950/60 dark:text-brand-300',
            isDragReject && 'border-danger bg-danger-soft text-danger',
          ),
        })}
      >
        {body}
      </div>
      <div className="mt-3 flex flex-wrap justify-center gap-2">
        {/* The camera on phones and tablets only (a touch screen or a narrow one, as the file
            manager decides taps): a desktop's file chooser has no camera to offer. */}
        <span className="hidden max-md:contents pointer-coarse:contents">
          <input
            ref={cameraRef}
            type="file"
            accept="image/*,video/*"
            capture="environment"
            hidden
            aria-label={t('uploads.cameraButton')}
            onChange={(event) => onCameraTaken(event.currentTarget)}
          />
          <Button variant="secondary" disabled={disabled} onClick={() => cameraRef.current?.click()}>
            <Camera aria-hidden="true" className="size-4" />
            {t('uploads.cameraButton')}
          </Button>
        </span>
        <Button variant="secondary" disabled={disabled} onClick={() => void chooseFolder().then(onFolderPicked)}>
          <FolderUp aria-hidden="true" className="size-4" />
          {t('uploads.folderButton')}
        </Button>
      </div>
    </>
  );
}

function State({ icon, title }: { icon: ReactNode; title: string }) {
  return (
    <>
      <span className="grid size-14 place-items-center rounded-2xl bg-surface-muted text-current">{icon}</span>
      <span className="mt-4 text-base font-semibold">{title}</span>
    </>
  );
}
