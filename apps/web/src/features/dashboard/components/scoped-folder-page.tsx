import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { FileItem } from '@cloudvault/contract/files';
import { useFolderPath } from '../../../hooks/use-folder-path';
import { ApiError } from '../../../lib/api-client';
import { useCurrentFolder } from '../hooks/use-current-folder';
import { useLeftFolder } from '../hooks/use-left-folder';
import { useListingSort } from '../hooks/use-listing-sort';
import { useNearEnd } from '../hooks/use-near-end';
import { usePagedListing } from '../hooks/use-paged-listing';
import { addFileToListings } from '../listing-cache';
import { DriveScopeContext, type DriveScope, type SharingSlot, type UploadsSlot, type VersionHistorySlot, type ViewerSlot } from '../slots';
import { FileBrowser } from './file-browser';

interface ScopedFolderPageProps {
  scope: DriveScope;
  uploads: UploadsSlot;
  viewer: ViewerSlot;
}

/** Share and version history are the owner's: inside a shared folder they are not offered. */
const noSharing: SharingSlot = { sharesThroughDialog: () => false, shareFileAtOnce: () => undefined, Dialog: () => null };
const noHistory: VersionHistorySlot = ({ children }) => children({ menuItems: [], dialog: null });

/**
 * (+++) A folder shared with the user as an editor, in the same file manager as their own
 * (the folder in the address, `?folder=<id>`): uploads by the picker and by dropping, new
 * folders, the selection bar, rename, and moves and copies that stay inside the shared folder
 * (`scope`). What lands here is the owner's, so no storage summary of the user's own is shown.
 */
export function ScopedFolderPage({ scope, uploads, viewer }: ScopedFolderPageProps) {
  const queryClient = useQueryClient();
  const [current] = useCurrentFolder();
  const folderId = current ?? scope.rootId;
  const leftFolderId = useLeftFolder(folderId);
  const { listing } = useListingSort();
  const listed = usePagedListing(folderId, listing);
  const path = useFolderPath(folderId);
  const { items, complete, loadMore, loadingMore, nextPageFailed } = listed;
  const { onFileUploaded } = uploads;

  // Uploaded files appear in their folder's listing as they land.
  useEffect(() => onFileUploaded((file: FileItem) => addFileToListings(queryClient, file)), [onFileUploaded, queryClient]);

  // The next page comes as the end of what is shown scrolls near, as in My Files.
  const end = useNearEnd<HTMLDivElement>();
  const { report, isNear } = end;
  useEffect(() => {
    if (items && !complete && !loadingMore && !nextPageFailed && report.near && isNear()) loadMore();
  }, [report, isNear, items, complete, loadingMore, nextPageFailed, loadMore]);

  const failed = listed.isError || path.isError;
  const missingFolder = [...listed.errors, path.error].some((error) => error instanceof ApiError && error.status === 404);

  return (
    <DriveScopeContext value={scope}>
      <FileBrowser
        key={folderId}
        folderId={folderId}
        leftFolderId={leftFolderId}
        items={items}
        path={path.data ?? null}
        loading={!items && !failed}
        notSavedOffline={!items && listed.paused}
        failed={failed}
        missingFolder={missingFolder}
        onRetry={() => {
          listed.refetch();
          void path.refetch();
        }}
        uploads={uploads}
        sharing={noSharing}
        versionHistory={noHistory}
        viewer={viewer}
      />
      <div ref={end.ref} aria-hidden="true" />
    </DriveScopeContext>
  );
}
