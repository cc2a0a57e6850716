import { useQueryClient } from '@tanstack/react-query';
import { FolderX, TriangleAlert } from 'lucide-react';
import { Share2, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState, type MouseEvent, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { FileItem } from '@cloudvault/contract/files';
import type { Folder } from '@cloudvault/contract/folders';
import { Button, buttonClasses } from '../../../components/ui/button';
import { lazyDialog } from '../../../components/ui/lazy-dialog';
import { Spinner } from '../../../components/ui/spinner';
import { FALLBACK_UPLOAD_CONFIG, useUploadConfig } from '../../../hooks/use-upload-config';
import { useViewedFile, useViewerClosed } from '../../../hooks/use-viewed-file';
import { serverErrorMessage } from '../../../lib/api-client';
import { signedInFileSource } from '../../../lib/file-source';
import { folderHref } from '../../../lib/folder-href';
import { driveKeys } from '../../../lib/query-keys';
import { downloadItem } from '../api/download-item';
import { useSearchFiles } from '../api/search-files';
import { useMoveItems } from '../api/update-item';
import { arrivalFocusKey } from '../arrival-focus';
import { createTapTracker, NARROW_SCREEN_MAX_WIDTH } from '../double-tap';
import { useCurrentFolder } from '../hooks/use-current-folder';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { useFileDrop } from '../hooks/use-file-drop';
import { useMediaQuery } from '../hooks/use-media-query';
import { useViewMode } from '../hooks/use-view-mode';
import { fileItem, fileKey, filterByName, type DraggedItemRef, type DriveItem } from '../items';
import type { SharingSlot, UploadsSlot, VersionHistorySlot, ViewerSlot } from '../slots';
import { Breadcrumbs } from './breadcrumbs';
import { DropOverlay } from './drop-overlay';
import { EmptyState } from './empty-state';
import { FileToolbar } from './file-toolbar';
import type { ItemAction } from './item-actions';
import { ItemCollection } from './item-collection';
import { SearchResults } from './search-results';

/** docs/product.md#search: the drive-wide search waits until typing pauses. */
const SEARCH_DEBOUNCE_MS = 300;

// Each dialog loads when first opened: the listing's first paint needs none of them.
const CreateFolderModal = lazyDialog(
  () => import('./create-folder-modal').then((m) => m.CreateFolderModal),
  (props) => props.open,
);
const DeleteItemModal = lazyDialog(
  () => import('./delete-item-modal').then((m) => m.DeleteItemModal),
  (props) => props.item !== null,
);
const RenameModal = lazyDialog(
  () => import('./rename-modal').then((m) => m.RenameModal),
  (props) => props.item !== null,
);
const MoveModal = lazyDialog(
  () => import('./move-modal').then((m) => m.MoveModal),
  (props) => props.items !== null,
);

type Dialog =
  | { type: 'upload' }
  | { type: 'create-folder' }
  | { type: 'delete'; item: DriveItem }
  | { type: 'rename'; item: DriveItem }
  | { type: 'move'; items: DriveItem[] }
  | { type: 'share'; item: DriveItem }
  | null;

interface FileBrowserProps {
  folderId: string | null;
  /** The folder shown before this one (null: My Files); undefined when the dashboard opened here. */
  leftFolderId: string | null | undefined;
  /** null while loading. */
  items: DriveItem[] | null;
  /** The folders from the top down to the open one; null while loading. */
  path: Folder[] | null;
  loading: boolean;
  failed: boolean;
  missingFolder: boolean;
  onRetry: () => void;
  uploads: UploadsSlot;
  sharing: SharingSlot;
  versionHistory: VersionHistorySlot;
  viewer: ViewerSlot;
}

/** Where a "Show in folder" from search wants the selection (router location state). */
interface RevealState {
  reveal?: string;
}

/**
 * The open folder: breadcrumbs, toolbar, the items (grid or list) and everything done with
 * them. Rendered with the folder id as key, so selection and search start fresh per folder.
 */
export function FileBrowser(props: FileBrowserProps) {
  const {
    folderId,
    leftFolderId,
    items,
    path,
    loading,
    failed,
    missingFolder,
    onRetry,
    uploads,
    sharing,
    versionHistory,
    viewer: Viewer,
  } = props;
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const location = useLocation();
  const [, openFolder] = useCurrentFolder();
  const [view, setView] = useViewMode();
  const [search, setSearch] = useState('');
  const debouncedSearch = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const revealKey = (location.state as RevealState | null)?.reveal ?? null;
  const [selection, setSelection] = useState<ReadonlySet<string>>(() => new Set(revealKey ? [revealKey] : []));
  const [activeKey, setActiveKey] = useState<string | null>(revealKey);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [tap] = useState(() => createTapTracker());
  const narrowScreen = useMediaQuery(`(max-width: ${NARROW_SCREEN_MAX_WIDTH}px)`);
  const coarsePointer = useMediaQuery('(pointer: coarse)');
  const narrow = narrowScreen || coarsePointer;
  const { data: uploadConfig } = useUploadConfig();
  const { uploadDropped } = uploads;
  const moveItems = useMoveItems();
  const plan = uploadConfig?.userPlan;
  const viewed = useViewedFile();
  const [focusRequest, setFocusRequest] = useState<{ key: string } | null>(null);
  // A request is answered by the items as they render; cleared after, so items shown again
  // later (a search cleared) do not pull the focus back.
  useEffect(() => {
    if (focusRequest) setFocusRequest(null);
  }, [focusRequest]);

  // Arriving from another folder (a tile, Back, a breadcrumb), the focus lands on an item, or
  // on the empty folder's heading, once the listing is in: never on the page's <body>.
  // The path of the folder left is still in the query cache: it tells where we came from.
  const [arrival, setArrival] = useState(() =>
    leftFolderId === undefined || revealKey !== null
      ? null
      : { leftPath: leftFolderId === null ? [] : (queryClient.getQueryData<Folder[]>(driveKeys.path(leftFolderId)) ?? []) },
  );
  const [focusEmptyHeading, setFocusEmptyHeading] = useState(false);
  useEffect(() => {
    if (!arrival || !items) return;
    setArrival(null);
    const key = arrivalFocusKey(items, folderId, arrival.leftPath);
    if (key === null) {
      setFocusEmptyHeading(true);
      return;
    }
    setActiveKey(key);
    setFocusRequest({ key });
  }, [arrival, items, folderId]);

  const home = t('dashboard.breadcrumbs.home');
  const folderName = folderId === null ? home : (path?.[path.length - 1]?.name ?? home);
  const term = search.trim();
  const visible = useMemo(() => (items ? filterByName(items, term) : []), [items, term]);

  const driveSearch = useSearchFiles(debouncedSearch);
  const hitsElsewhere = useMemo(() => (driveSearch.data ?? []).filter((file) => file.folderId !== folderId), [driveSearch.data, folderId]);
  const searching = term.length > 0 && (debouncedSearch.trim() !== term || driveSearch.isFetching);
  const showDriveSearch = term.length > 0 && (hitsElsewhere.length > 0 || visible.length === 0 || searching);

  // --- Files dropped from the desktop anywhere on the page --------------------------------
  const onDropFiles = useCallback(
    (dataTransfer: DataTransfer) => {
      void uploadDropped(dataTransfer, folderId, uploadConfig ?? FALLBACK_UPLOAD_CONFIG).then((created) => {
        if (created > 0) void queryClient.invalidateQueries({ queryKey: driveKeys.folders(folderId) });
      });
    },
    [uploadDropped, uploadConfig, folderId, queryClient],
  );
  // Not under the viewer: what is dropped there would land in a folder the person cannot see.
  const dragging = useFileDrop(dialog === null && viewed.fileId === null && !failed, onDropFiles);

  // --- Selection --------------------------------------------------------------------------
  const toggle = useCallback((item: DriveItem) => {
    setSelection((current) => {
      const next = new Set(current);
      if (next.has(item.key)) next.delete(item.key);
      else next.add(item.key);
      return next;
    });
  }, []);

  const open = (item: DriveItem) => {
    if (item.kind === 'folder') openFolder(item.id);
    else viewed.open(item.id);
  };

  // --- The viewer (its file in the address: ?view=<id>) ------------------------------------
  const viewerFiles = useMemo(() => visible.flatMap((item) => (item.kind === 'file' ? [item.file] : [])), [visible]);
  // Closed by Escape, its button or Back: the tile of the file last shown takes the focus.
  useViewerClosed(viewed.fileId, (lastFileId) => {
    const key = fileKey(lastFileId);
    setActiveKey(key);
    setFocusRequest({ key });
  });
  const viewerItem = (fileId: string) => items?.find((item) => item.kind === 'file' && item.id === fileId);

  const onItemClick = (item: DriveItem, event: MouseEvent) => {
    setActiveKey(item.key);
    if (event.ctrlKey || event.metaKey) {
      toggle(item);
      return;
    }
    if (item.kind === 'folder') {
      // Touch and narrow screens: a second tap within 300 ms opens.
      if (narrow && tap(item.key, performance.now()) === 'open') {
        openFolder(item.id);
        return;
      }
      setSelection(new Set([item.key]));
    } else if (narrow) {
      // docs/product.md: a tap on a phone opens a file in the viewer.
      open(item);
    } else {
      toggle(item);
    }
  };

  const onItemDoubleClick = (item: DriveItem) => {
    if (narrow && item.kind === 'folder') return; // The tap logic handles it.
    open(item);
  };

  const selectedItems = (item: DriveItem): DriveItem[] =>
    selection.has(item.key) && items ? items.filter((entry) => selection.has(entry.key)) : [item];

  // --- Actions ----------------------------------------------------------------------------
  function runAction(action: ItemAction, item: DriveItem) {
    const isFolder = item.kind === 'folder';
    switch (action) {
      case 'download':
        downloadItem(item).then(
          () => toast.success(isFolder ? t('dashboard.download.folderStarted') : t('dashboard.download.fileStarted')),
          () => toast.error(isFolder ? t('dashboard.download.folderFailed') : t('dashboard.download.fileFailed')),
        );
        break;
      case 'share':
        if (sharing.sharesThroughDialog(item, plan)) setDialog({ type: 'share', item });
        else sharing.shareFileAtOnce(item.id);
        break;
      case 'delete':
        setDialog({ type: 'delete', item });
        break;
      case 'rename':
        setDialog({ type: 'rename', item });
        break;
      case 'move':
        setDialog({ type: 'move', items: selectedItems(item) });
        break;
    }
  }

  const move = (refs: DraggedItemRef[], targetFolderId: string | null, targetName: string) => {
    // Dropping a folder onto itself, or items where they already are, moves nothing.
    const wanted = refs.filter((ref) => !(ref.kind === 'folder' && ref.id === targetFolderId));
    if (wanted.length === 0 || targetFolderId === folderId) return;
    moveItems.mutate(
      { items: wanted, targetFolderId },
      {
        onSuccess: ({ moved, error }) => {
          if (moved.length === 1) toast.success(t('dashboard.move.success', { folder: targetName }));
          else if (moved.length > 1) toast.success(t('dashboard.move.successMany', { count: moved.length, folder: targetName }));
          if (error) toast.error(serverErrorMessage(error) ?? t('dashboard.move.failed'));
          setSelection(new Set());
        },
      },
    );
  };

  const dragRefsFor = (item: DriveItem): DraggedItemRef[] => selectedItems(item).map((entry) => ({ kind: entry.kind, id: entry.id }));

  const nameOfFolder = (id: string | null) =>
    id === null
      ? home
      : (items?.find((item) => item.kind === 'folder' && item.id === id)?.name ?? path?.find((folder) => folder.id === id)?.name ?? home);

  const showInFolder = (file: FileItem) => {
    const key = fileItem(file).key;
    if (file.folderId === folderId) {
      setSearch('');
      setSelection(new Set([key]));
      setActiveKey(key);
      return;
    }
    openFolder(file.folderId, { state: { reveal: key } satisfies RevealState });
  };

  // --- Rendering --------------------------------------------------------------------------
  let content;
  if (missingFolder) {
    content = (
      <Notice icon={<FolderX aria-hidden="true" className="size-7" />} title={t('dashboard.folderMissing')}>
        <Link to={folderHref(null)} className={buttonClasses({ variant: 'secondary' })}>
          {t('dashboard.goHome')}
        </Link>
      </Notice>
    );
  } else if (failed && !items) {
    content = (
      <Notice icon={<TriangleAlert aria-hidden="true" className="size-7" />} title={t('dashboard.loadFailed')}>
        <Button variant="secondary" onClick={onRetry}>
          {t('dashboard.retry')}
        </Button>
      </Notice>
    );
  } else if (loading || !items) {
    content = (
      <div role="status" className="flex min-h-64 flex-col items-center justify-center gap-3 text-sm text-ink-muted">
        <Spinner className="size-7 text-brand-600 dark:text-brand-400" />
        {t('dashboard.loading')}
      </div>
    );
  } else if (items.length === 0 && !term) {
    content = (
      <EmptyState
        atHome={folderId === null}
        focusHeading={focusEmptyHeading}
        onUpload={() => setDialog({ type: 'upload' })}
        onNewFolder={() => setDialog({ type: 'create-folder' })}
      />
    );
  } else {
    content = (
      <>
        {visible.length > 0 ? (
          <ItemCollection
            items={visible}
            view={view}
            selection={selection}
            activeKey={activeKey}
            revealActive={revealKey !== null}
            narrow={narrow}
            animationKey={`${folderId ?? 'home'}:${view}`}
            onItemClick={onItemClick}
            onItemDoubleClick={onItemDoubleClick}
            onMoveTo={(item) => {
              setActiveKey(item.key);
              setSelection(new Set([item.key]));
            }}
            onToggle={toggle}
            onOpen={open}
            focusRequest={focusRequest}
            onAction={runAction}
            versionHistory={versionHistory}
            onClearSelection={() => setSelection(new Set())}
            dragRefsFor={dragRefsFor}
            onDropOnFolder={(refs, targetId) => move(refs, targetId, nameOfFolder(targetId))}
          />
        ) : (
          <p className="py-8 text-center text-sm text-ink-muted">{t('dashboard.search.noMatchesHere', { term })}</p>
        )}
        {showDriveSearch && (
          <SearchResults
            term={term}
            hits={debouncedSearch.trim() === term ? hitsElsewhere : undefined}
            loading={searching}
            failed={driveSearch.isError}
            onShow={showInFolder}
            onDownload={(file) => runAction('download', fileItem(file))}
          />
        )}
      </>
    );
  }

  return (
    <section className="mt-6 rounded-card border border-line bg-surface shadow-card">
      <div className="flex flex-col gap-3 border-b border-line px-3 py-3 sm:px-5 sm:py-4">
        <Breadcrumbs
          path={path ?? []}
          onDropItems={(refs, targetId) =>
            move(refs, targetId, targetId === null ? home : (path?.find((folder) => folder.id === targetId)?.name ?? home))
          }
        />
        <FileToolbar
          search={search}
          onSearchChange={setSearch}
          view={view}
          onViewChange={setView}
          onNewFolder={() => setDialog({ type: 'create-folder' })}
          onUpload={() => setDialog({ type: 'upload' })}
        />
      </div>
      <div className="p-3 sm:p-5">{content}</div>

      {dragging && <DropOverlay folderName={folderName} />}
      <uploads.Dialog open={dialog?.type === 'upload'} onClose={() => setDialog(null)} folderId={folderId} folderName={folderName} />
      <CreateFolderModal
        open={dialog?.type === 'create-folder'}
        onClose={() => setDialog(null)}
        parentId={folderId}
        parentName={folderName}
      />
      <DeleteItemModal
        item={dialog?.type === 'delete' ? dialog.item : null}
        onClose={() => setDialog(null)}
        onDeleted={(item) =>
          setSelection((current) => {
            const next = new Set(current);
            next.delete(item.key);
            return next;
          })
        }
      />
      <RenameModal item={dialog?.type === 'rename' ? dialog.item : null} onClose={() => setDialog(null)} />
      <sharing.Dialog item={dialog?.type === 'share' ? dialog.item : null} plan={plan} onClose={() => setDialog(null)} />
      {viewed.fileId !== null && items && (
        <Viewer
          files={viewerFiles}
          fileId={viewed.fileId}
          source={signedInFileSource}
          onMove={viewed.move}
          onClose={viewed.close}
          renderActions={(file, toolbar) => {
            const item = viewerItem(file.id);
            if (!item || item.kind !== 'file') return toolbar([]);
            const actions = [
              { id: 'share', label: t('dashboard.item.share'), icon: Share2, onSelect: () => runAction('share', item) },
              {
                id: 'delete',
                label: t('dashboard.item.delete'),
                icon: Trash2,
                tone: 'danger' as const,
                onSelect: () => runAction('delete', item),
              },
            ];
            const VersionHistory = versionHistory;
            return (
              <VersionHistory file={item.file}>{(history) => toolbar([...history.menuItems, ...actions], history.dialog)}</VersionHistory>
            );
          }}
        />
      )}
      <MoveModal
        items={dialog?.type === 'move' ? dialog.items : null}
        fromFolderId={folderId}
        onClose={() => setDialog(null)}
        onMove={(moving, targetId, targetName) => {
          setDialog(null);
          move(
            moving.map((item) => ({ kind: item.kind, id: item.id })),
            targetId,
            targetName,
          );
        }}
      />
    </section>
  );
}

function Notice({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div role="alert" className="flex min-h-64 flex-col items-center justify-center gap-4 px-6 py-12 text-center">
      <span className="grid size-14 place-items-center rounded-2xl bg-surface-muted text-ink-muted">{icon}</span>
      <p className="max-w-sm text-sm font-medium text-ink">{title}</p>
      {children}
    </div>
  );
}
