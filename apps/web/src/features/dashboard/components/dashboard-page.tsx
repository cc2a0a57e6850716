import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import type { FileItem } from '@cloudvault/contract/files';
import { PageTitle } from '../../../components/ui/page-title';
import { useFiles } from '../../../hooks/use-files';
import { useFolderPath } from '../../../hooks/use-folder-path';
import { useFolders } from '../../../hooks/use-folders';
import { useSession } from '../../../hooks/use-session';
import { ApiError } from '../../../lib/api-client';
import { useFormatSize } from '../../../lib/format-size';
import { driveKeys } from '../../../lib/query-keys';
import { useStorageInfo } from '../api/get-storage-info';
import { dayPart } from '../greeting';
import { useCurrentFolder } from '../hooks/use-current-folder';
import { useLeftFolder } from '../hooks/use-left-folder';
import { driveItems, insertSorted } from '../items';
import type { SharingSlot, UploadsSlot, VersionHistorySlot, ViewerSlot } from '../slots';
import { FileBrowser } from './file-browser';
import { StorageCard } from './storage-card';

/** How often the storage summary may refresh while a batch of uploads lands. */
const STORAGE_REFRESH_MS = 1000;

interface DashboardPageProps {
  uploads: UploadsSlot;
  sharing: SharingSlot;
  versionHistory: VersionHistorySlot;
  viewer: ViewerSlot;
}

/** The file manager (docs/product.md#dashboard), with uploads, sharing, version history and the viewer passed in by the app. */
export function DashboardPage({ uploads, sharing, versionHistory, viewer }: DashboardPageProps) {
  const { t } = useTranslation();
  const formatSize = useFormatSize();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const firstName = user?.firstName ?? '';
  const [folderId] = useCurrentFolder();
  const leftFolderId = useLeftFolder(folderId);
  const { onFileUploaded } = uploads;

  const storage = useStorageInfo();
  const folders = useFolders(folderId);
  const files = useFiles(folderId);
  const path = useFolderPath(folderId);

  // docs/product.md#dashboard: the dashboard info reloads whenever the folder changes (the
  // listings do by themselves: each folder is its own query, re-read when shown).
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: driveKeys.storage });
  }, [folderId, queryClient]);

  // Uploaded files appear in their folder's listing as they land; the storage summary
  // follows at most once a second.
  useEffect(() => {
    let timer: number | undefined;
    const unsubscribe = onFileUploaded((file: FileItem) => {
      queryClient.setQueryData<FileItem[]>(driveKeys.files(file.folderId), (list) =>
        list
          ? insertSorted(
              list.filter((existing) => existing.id !== file.id),
              file,
              (entry) => entry.originalName,
            )
          : list,
      );
      timer ??= window.setTimeout(() => {
        timer = undefined;
        void queryClient.invalidateQueries({ queryKey: driveKeys.storage });
      }, STORAGE_REFRESH_MS);
    });
    return () => {
      unsubscribe();
      window.clearTimeout(timer);
    };
  }, [onFileUploaded, queryClient]);

  const failed = folders.isError || files.isError || path.isError || storage.isError;
  useEffect(() => {
    if (failed) toast.error(t('dashboard.loadFailed'), { id: 'dashboard-load-failed' });
  }, [failed, t]);

  const items = useMemo(() => (folders.data && files.data ? driveItems(folders.data, files.data) : null), [folders.data, files.data]);
  const storageInfo = storage.data?.storageInfo;
  // A folder id in the address that is not (or no longer) the user's: 404 on its listings.
  const missingFolder = [folders.error, files.error, path.error].some((error) => error instanceof ApiError && error.status === 404);

  return (
    <>
      <PageTitle title={t('dashboard.pageTitle')} />
      <div className="flex flex-col gap-6 lg:flex-row lg:items-end lg:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">
            {t(`dashboard.greeting.${dayPart(new Date())}`, { firstName })}
          </h1>
          <p className="mt-1.5 text-sm text-ink-muted">
            <span>{items ? t('dashboard.summary.items', { count: items.length }) : '\u00a0'}</span>
            {storageInfo && (
              <>
                <span aria-hidden="true" className="mx-2 text-ink-subtle">
                  ·
                </span>
                <span>{t('dashboard.summary.storageUsed', { used: formatSize(storageInfo.storageUsed) })}</span>
              </>
            )}
          </p>
        </div>
        <StorageCard storage={storageInfo} className="w-full lg:w-96" />
      </div>

      <FileBrowser
        key={folderId ?? 'home'}
        folderId={folderId}
        leftFolderId={leftFolderId}
        items={items}
        path={folderId === null ? [] : (path.data ?? null)}
        loading={!items && !failed}
        failed={failed}
        missingFolder={missingFolder}
        onRetry={() => {
          void folders.refetch();
          void files.refetch();
          void path.refetch();
          void storage.refetch();
        }}
        uploads={uploads}
        sharing={sharing}
        versionHistory={versionHistory}
        viewer={viewer}
      />
    </>
  );
}
