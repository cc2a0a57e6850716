import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { FileItem } from '@cloudvault/contract/files';
import { Button } from '../../../components/ui/button';
import { PageTitle } from '../../../components/ui/page-title';
import { useFolderPath } from '../../../hooks/use-folder-path';
import { useSession } from '../../../hooks/use-session';
import { useViewedFile } from '../../../hooks/use-viewed-file';
import { ApiError } from '../../../lib/api-client';
import { useFormatSize } from '../../../lib/format-size';
import { notify } from '../../../lib/notify';
import { driveKeys } from '../../../lib/query-keys';
import { useStorageInfo } from '../api/get-storage-info';
import { dayPart } from '../greeting';
import { useCurrentFolder } from '../hooks/use-current-folder';
import { useLeftFolder } from '../hooks/use-left-folder';
import { useListingSort } from '../hooks/use-listing-sort';
import { useNearEnd } from '../hooks/use-near-end';
import { usePagedListing } from '../hooks/use-paged-listing';
import { fileKey, type DriveItem } from '../items';
import { addFileToListings } from '../listing-cache';
import type { SharingSlot, UploadsSlot, VersionHistorySlot, ViewerSlot } from '../slots';
import { FileBrowser } from './file-browser';
import { StorageCard } from './storage-card';

/** How often the storage summary may refresh while a batch of uploads lands. */
const STORAGE_REFRESH_MS = 1000;
/** The viewer's Next needs a file after the one shown: the next page comes while it is among the last few read. */
const VIEWER_LOOKAHEAD = 5;

/**
 * Whether the item of `key` is wanted and not among those read yet (a reveal from search, a
 * viewer opened from the address), or among the last `lookahead` of them.
 */
function isSought(items: DriveItem[], key: string | undefined, lookahead = 0): boolean {
  if (key === undefined) return false;
  const index = items.findIndex((item) => item.key === key);
  return index === -1 || index >= items.length - lookahead;
}

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
  const location = useLocation();
  const firstName = user?.firstName ?? '';
  const [folderId] = useCurrentFolder();
  const leftFolderId = useLeftFolder(folderId);
  const { onFileUploaded } = uploads;

  const storage = useStorageInfo();
  const { listing } = useListingSort();
  const listed = usePagedListing(folderId, listing);
  const path = useFolderPath(folderId);
  const { items, complete, loadMore, loadingMore, nextPageFailed } = listed;
  const { fileId: viewedFileId } = useViewedFile();

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
      addFileToListings(queryClient, file);
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

  // The next page comes as the end of what is shown scrolls near (the search box filtering
  // the shown items brings the end near too, so a search in the folder reads it on), while
  // "Show in folder" or the viewer's address names an item not read yet, or while the viewer
  // shows one of the last files read (its Next goes on into the next page).
  const end = useNearEnd<HTMLDivElement>();
  const revealKey = (location.state as { reveal?: string } | null)?.reveal;
  const viewedKey = viewedFileId === null ? undefined : fileKey(viewedFileId);
  const seeking = items !== null && (isSought(items, revealKey) || isSought(items, viewedKey, VIEWER_LOOKAHEAD));
  const { report, isNear, recheck } = end;
  const recheckedFor = useRef<DriveItem[] | null>(null);
  useEffect(() => {
    if (!items || complete || loadingMore || nextPageFailed) return;
    if (seeking || (report.near && isNear())) loadMore();
    else if (report.near && recheckedFor.current !== items) {
      // Once per change of the items: the observer's word and the measure could disagree for good.
      recheckedFor.current = items;
      recheck();
    }
  }, [report, isNear, recheck, seeking, items, complete, loadingMore, nextPageFailed, loadMore]);

  const failed = listed.isError || path.isError || storage.isError;
  useEffect(() => {
    if (failed) notify.error('dashboard.loadFailed', { once: true });
  }, [failed]);

  const storageInfo = storage.data?.storageInfo;
  // A folder id in the address that is not (or no longer) the user's: 404 on its listings.
  const missingFolder = [...listed.errors, path.error].some((error) => error instanceof ApiError && error.status === 404);

  let summary = '\u00a0';
  if (items)
    summary = complete ? t('dashboard.summary.items', { count: items.length }) : t('dashboard.summary.itemsSoFar', { shown: items.length });

  return (
    <>
      <PageTitle title={t('dashboard.pageTitle')} />
      <div className="flex flex-col gap-6 lg:flex-row lg:items-end lg:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">
            {t(`dashboard.greeting.${dayPart(new Date())}`, { firstName })}
          </h1>
          <p className="mt-1.5 text-sm text-ink-muted">
            <span>{summary}</span>
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
        notSavedOffline={!items && listed.paused}
        failed={failed}
        missingFolder={missingFolder}
        onRetry={() => {
          listed.refetch();
          void path.refetch();
          void storage.refetch();
        }}
        uploads={uploads}
        sharing={sharing}
        versionHistory={versionHistory}
        viewer={viewer}
      />
      {/* Where the items read so far end: near the screen, the next page is asked for. */}
      <div ref={end.ref} aria-hidden="true" />
      <p role="status" className="mt-4 text-center text-sm text-ink-muted empty:hidden">
        {loadingMore ? t('dashboard.loadingMore') : null}
      </p>
      {nextPageFailed && (
        <p className="mt-4 flex items-center justify-center gap-3 text-sm text-ink-muted">
          {t('dashboard.loadMoreFailed')}
          <Button variant="secondary" size="sm" onClick={loadMore}>
            {t('dashboard.retry')}
          </Button>
        </p>
      )}
    </>
  );
}
