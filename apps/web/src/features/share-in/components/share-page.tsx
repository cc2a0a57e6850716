import { FolderOpen, Inbox, Upload } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { FileIcon, FolderIcon } from '../../../components/ui/file-icon';
import { PageTitle } from '../../../components/ui/page-title';
import { ContentSpinner } from '../../../components/ui/spinner';
import { useUploadConfig } from '../../../hooks/use-upload-config';
import { cn } from '../../../lib/cn';
import { folderHref } from '../../../lib/folder-href';
import { useFormatSize } from '../../../lib/format-size';
import { notify } from '../../../lib/notify';
import { discardSharedBatch, useSharedBatch } from '../api/shared-batch';
import { useImageUrls } from '../hooks/use-image-urls';
import type { FolderChooserSlot, StartUploadsSlot } from '../slots';

interface SharePageProps {
  folderChooser: FolderChooserSlot;
  startUploads: StartUploadsSlot;
}

/**
 * /share?batch=<id>: the files another app shared into CloudVault (the manifest's share
 * target), kept on the device until the user uploads them into a folder of their choosing or
 * dismisses them. Without a batch (nothing kept, an expired one, the server's answer when no
 * service worker caught the share) it says that nothing was received.
 */
export function SharePage({ folderChooser: FolderChooser, startUploads }: SharePageProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const batch = params.get('batch');
  const shared = useSharedBatch(batch);
  const files = shared.data ?? [];

  return (
    <>
      <PageTitle title={t('shareIn.pageTitle')} />
      <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">{t('shareIn.title')}</h1>
      {shared.isPending ? (
        <ContentSpinner />
      ) : batch === null || files.length === 0 ? (
        <NothingReceived />
      ) : (
        <Received batch={batch} files={files} FolderChooser={FolderChooser} startUploads={startUploads} />
      )}
    </>
  );
}

function NothingReceived() {
  const { t } = useTranslation();
  return (
    <section className="mt-6 rounded-card border border-line bg-surface shadow-card">
      <EmptyPanel icon={Inbox} title={t('shareIn.empty.title')} hint={t('shareIn.empty.hint')}>
        <Link to="/dashboard" className={cn(buttonClasses({ variant: 'secondary' }), 'mt-3')}>
          <FolderOpen aria-hidden="true" className="size-4" />
          {t('shareIn.empty.myFiles')}
        </Link>
      </EmptyPanel>
    </section>
  );
}

interface ReceivedProps {
  batch: string;
  files: File[];
  FolderChooser: FolderChooserSlot;
  startUploads: StartUploadsSlot;
}

function Received({ batch, files, FolderChooser, startUploads }: ReceivedProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const formatSize = useFormatSize();
  const config = useUploadConfig();
  const thumbnails = useImageUrls(files);
  const [folder, setFolder] = useState<{ id: string | null; name: string }>({ id: null, name: t('shareIn.myFiles') });
  const [choosing, setChoosing] = useState(false);
  const [busy, setBusy] = useState(false);

  const onUpload = async () => {
    if (!config.data) return;
    setBusy(true);
    try {
      await startUploads(files, folder.id, config.data);
      // The queue holds the files now (their blobs stay readable): the device's copy can go.
      await discardSharedBatch(batch);
      void navigate(folderHref(folder.id));
    } catch (error) {
      console.warn('Could not start the shared files’ upload.', error);
      notify.error('shareIn.failed');
      setBusy(false);
    }
  };

  const onCancel = async () => {
    setBusy(true);
    await discardSharedBatch(batch).catch((error: unknown) => console.warn('Could not discard the shared files.', error));
    void navigate('/dashboard');
  };

  return (
    <>
      <p className="mt-1.5 max-w-2xl text-sm text-ink-muted">{t('shareIn.subtitle', { count: files.length })}</p>
      <section className="mt-6 overflow-hidden rounded-card border border-line bg-surface shadow-card">
        <ul aria-label={t('shareIn.listLabel')} className="divide-y divide-line">
          {files.map((file, index) => (
            <li key={index} className="flex items-center gap-3 px-3 py-3 sm:px-5">
              {thumbnails[index] ? (
                <img src={thumbnails[index]} alt="" className="size-10 shrink-0 rounded-md object-cover" />
              ) : (
                <FileIcon mimetype={file.type} name={file.name} size="md" />
              )}
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-semibold text-ink" title={file.name}>
                  {file.name}
                </p>
                <p className="text-xs text-ink-muted">{formatSize(file.size)}</p>
              </div>
            </li>
          ))}
        </ul>
        <div className="flex items-center gap-3 border-t border-line bg-surface-muted px-3 py-3 sm:px-5">
          <FolderIcon size="md" />
          <div className="min-w-0 flex-1">
            <p className="text-xs text-ink-muted">{t('shareIn.destination')}</p>
            <p className="truncate text-sm font-semibold text-ink">{folder.name}</p>
          </div>
          <Button variant="secondary" size="sm" onClick={() => setChoosing(true)} disabled={busy}>
            {t('shareIn.changeFolder')}
          </Button>
        </div>
      </section>
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={() => void onCancel()} disabled={busy}>
          {t('ui.cancel')}
        </Button>
        <Button onClick={() => void onUpload()} loading={busy} disabled={!config.data}>
          {!busy && <Upload aria-hidden="true" className="size-4" />}
          {t('shareIn.upload', { count: files.length })}
        </Button>
      </div>
      {choosing && (
        <FolderChooser
          title={t('shareIn.chooser.title')}
          description={t('shareIn.chooser.description')}
          pickLabel={t('shareIn.chooser.pick')}
          startFolderId={folder.id}
          onClose={() => setChoosing(false)}
          onPick={(id, name) => {
            setFolder({ id, name });
            setChoosing(false);
          }}
        />
      )}
    </>
  );
}
