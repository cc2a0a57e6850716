import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useContext, useRef, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { FileItem } from '@cloudvault/contract/files';
import type { Folder } from '@cloudvault/contract/folders';
import { LiveRegion } from '../../../components/ui/live-region';
import { NotSavedOffline } from '../../../components/ui/not-saved-offline';
import { FALLBACK_UPLOAD_CONFIG, useUploadConfig } from '../../../hooks/use-upload-config';
import { driveKeys } from '../../../lib/query-keys';
import { useViewedFile, useViewerClosed } from '../../../hooks/use-viewed-file';
import { useArrivalFocus } from '../hooks/use-arrival-focus';
import { useBoxSelection } from '../hooks/use-box-selection';
import { useBrowserContextMenu } from '../hooks/use-browser-context-menu';
import { useClipboardActions } from '../hooks/use-clipboard-actions';
import { useCurrentFolder } from '../hooks/use-current-folder';
import { useDriveDrops } from '../hooks/use-drive-drops';
import { useDriveSearch } from '../hooks/use-drive-search';
import { useFocusRequest } from '../hooks/use-focus-request';
import { useItemActionsDialogs } from '../hooks/use-item-actions-dialogs';
import { useItemClicks } from '../hooks/use-item-clicks';
import { useItemSelection } from '../hooks/use-item-selection';
import { useMoveToFolder } from '../hooks/use-move-to-folder';
import { useSelectionCommands } from '../hooks/use-selection-commands';
import { useTouchOrNarrow } from '../hooks/use-touch-or-narrow';
import { useUploadShortcut } from '../hooks/use-upload-shortcut';
import { useViewMode } from '../hooks/use-view-mode';
import { fileItem, fileKey, isStarred, type DraggedItemRef, type DriveItem } from '../items';
import { rangeKeys } from '../selection-range';
import { DriveScopeContext, StarringContext, type SharingSlot, type UploadsSlot, type VersionHistorySlot, type ViewerSlot } from '../slots';
import { Breadcrumbs } from './breadcrumbs';
import { BrowserContextMenu } from './browser-context-menu';
import { DropOverlay } from './drop-overlay';
import { EmptyState } from './empty-state';
import { FileToolbar } from './file-toolbar';
import { FolderViewer } from './folder-viewer';
import { ItemCollection } from './item-collection';
import { ItemDialogs } from './item-dialogs';
import { ListingLoading, LoadFailedNotice, MissingFolderNotice } from './listing-notices';
import { SearchResults } from './search-results';
import { SelectionBar } from './selection-bar';

interface FileBrowserProps {
  folderId: string | null;
  /** The folder shown before this one (null: My Files); undefined when the dashboard opened here. */
  leftFolderId: string | null | undefined;
  /** null while loading. */
  items: DriveItem[] | null;
  /** The folders from the top down to the open one; null while loading. */
  path: Folder[] | null;
  loading: boolean;
  /** Offline, and the device kept no copy of this folder's listing. */
  notSavedOffline: boolean;
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
 * them: the selection (clicks, keys, a box, a long press) and its bar, the context menus, the
 * page's shortcuts and the clipboard. Rendered with the folder id as key, so selection and
 * search start fresh per folder.
 */
export function FileBrowser(props: FileBrowserProps) {
  const { folderId, items, path, failed, uploads, sharing, versionHistory } = props;
  const { t } = useTranslation();
  const location = useLocation();
  const [, openFolder] = useCurrentFolder();
  const [view, setView] = useViewMode();
  const search = useDriveSearch(items, folderId);
  const revealKey = (location.state as RevealState | null)?.reveal ?? null;
  const selection = useItemSelection(items, revealKey);
  const { setActiveKey } = selection;
  const narrow = useTouchOrNarrow();
  const { data: uploadConfig } = useUploadConfig();
  const plan = uploadConfig?.userPlan;
  const viewed = useViewedFile();
  const starItems = useContext(StarringContext);
  // Inside a folder shared with the user, search looks in the folder only: the rest of their drive is not this page's.
  const scope = useContext(DriveScopeContext);
  const open = (item: DriveItem) => {
    if (item.kind === 'folder') openFolder(item.id);
    else viewed.open(item.id);
  };
  const { dialog, openDialog, closeDialog, runAction, download } = useItemActionsDialogs({
    sharing,
    plan,
    selectedItems: selection.selectedItems,
    open,
    starItems,
    starredText: (count, starred) => t(starred ? 'dashboard.selection.starred' : 'dashboard.selection.unstarred', { count }),
  });
  useUploadShortcut(useCallback(() => openDialog({ type: 'upload' }), [openDialog]));
  const { focusRequest, requestFocus } = useFocusRequest();
  const focusItem = useCallback(
    (key: string) => {
      setActiveKey(key);
      requestFocus(key);
    },
    [setActiveKey, requestFocus],
  );
  const focusEmptyHeading = useArrivalFocus({ folderId, leftFolderId: props.leftFolderId, revealKey, items, onArrive: focusItem });
  // Not under the viewer: what is dropped there would land in a folder the person cannot see.
  const dragging = useDriveDrops({
    enabled: dialog === null && viewed.fileId === null && !failed,
    folderId,
    uploadDropped: uploads.uploadDropped,
    uploadConfig,
  });
  // Closed by Escape, its button or Back: the tile of the file last shown takes the focus.
  useViewerClosed(viewed.fileId, (lastFileId) => focusItem(fileKey(lastFileId)));
  const move = useMoveToFolder(folderId, selection.clear, {
    resolve: uploads.resolveNameClashes,
    nameOf: (ref) => items?.find((item) => item.kind === ref.kind && item.id === ref.id)?.name ?? '',
  });

  const home = t('dashboard.breadcrumbs.home');
  const folderName = folderId === null ? home : (path?.[path.length - 1]?.name ?? home);
  const { term, visible } = search;
  const sectionRef = useRef<HTMLElement>(null);
  const areaRef = useRef<HTMLDivElement>(null);
  const clipboard = useClipboardActions(folderId, folderName);
  const menu = useBrowserContextMenu();
  const commands = useSelectionCommands({
    selection,
    visible,
    sectionRef,
    areaRef,
    keysEnabled: dialog === null && viewed.fileId === null && !menu.open,
    runAction,
    download,
    openDialog,
    showMenu: menu.show,
    clipboard,
  });
  const order = visible.map((item) => item.key);
  const { onItemClick, onItemDoubleClick } = useItemClicks({ narrow, selection, order, selecting: commands.selecting, open, openFolder });
  // A Shift-click's range says how many it selected, as Ctrl/Cmd+A and a box do.
  const onItemClickSaid = (item: DriveItem, event: MouseEvent) => {
    onItemClick(item, event);
    if (!event.shiftKey) return;
    const range = rangeKeys(order, selection.anchorKey, item.key);
    commands.announceCount(event.ctrlKey || event.metaKey ? new Set([...selection.selection, ...range]).size : range.length);
  };
  const boxSelection = useBoxSelection({
    areaRef,
    selection: selection.selection,
    select: selection.selectKeys,
    onBackgroundClick: commands.clear,
    onSelected: commands.announceCount,
    enabled: dialog === null && !narrow,
  });
  const selectedCount = selection.selection.size;
  const queryClient = useQueryClient();
  // "Upload folder": the browser's folder chooser; the listing reloads when it made folders.
  const uploadFolder = () => {
    void uploads.pickFolder(folderId, uploadConfig ?? FALLBACK_UPLOAD_CONFIG).then((created) => {
      if (created > 0) void queryClient.invalidateQueries({ queryKey: driveKeys.folders(folderId) });
    });
  };
  const dragRefsFor = (item: DriveItem): DraggedItemRef[] =>
    selection.selectedItems(item).map((entry) => ({ kind: entry.kind, id: entry.id }));
  const nameOfFolder = (id: string | null) =>
    id === null
      ? home
      : (items?.find((item) => item.kind === 'folder' && item.id === id)?.name ?? path?.find((folder) => folder.id === id)?.name ?? home);

  const showInFolder = (file: FileItem) => {
    const key = fileItem(file).key;
    if (file.folderId === folderId) {
      search.setSearch('');
      selection.selectOnly(key);
      setActiveKey(key);
      return;
    }
    openFolder(file.folderId, { state: { reveal: key } satisfies RevealState });
  };

  let content;
  if (props.missingFolder) {
    content = <MissingFolderNotice />;
  } else if (failed && !items) {
    content = <LoadFailedNotice onRetry={props.onRetry} />;
  } else if (props.notSavedOffline) {
    content = <NotSavedOffline className="min-h-64" />;
  } else if (props.loading || !items) {
    content = <ListingLoading />;
  } else if (items.length === 0 && !term) {
    content = (
      <EmptyState
        atHome={folderId === null}
        focusHeading={focusEmptyHeading}
        onUpload={() => openDialog({ type: 'upload' })}
        onNewFolder={() => openDialog({ type: 'create-folder' })}
      />
    );
  } else {
    content = (
      <>
        {visible.length > 0 ? (
          <ItemCollection
            items={visible}
            view={view}
            selection={selection.selection}
            activeKey={selection.activeKey}
            revealActive={revealKey !== null}
            narrow={narrow}
            animationKey={`${folderId ?? 'home'}:${view}`}
            onItemClick={onItemClickSaid}
            onItemDoubleClick={onItemDoubleClick}
            onMoveTo={(item) => {
              setActiveKey(item.key);
              selection.selectOnly(item.key);
            }}
            onToggle={selection.toggle}
            onOpen={open}
            focusRequest={focusRequest}
            onAction={runAction}
            versionHistory={versionHistory}
            onClearSelection={commands.clear}
            onItemContextMenu={commands.openItemMenu}
            onItemLongPress={commands.onItemLongPress}
            dragRefsFor={dragRefsFor}
            onDropOnFolder={(refs, targetId) => move(refs, targetId, nameOfFolder(targetId))}
          />
        ) : (
          <p className="py-8 text-center text-sm text-ink-muted">{t('dashboard.search.noMatchesHere', { term })}</p>
        )}
        {search.showDriveSearch && scope === null && (
          <SearchResults
            term={term}
            hits={search.hitsElsewhere}
            loading={search.searching}
            failed={search.failed}
            onShow={showInFolder}
            onDownload={(file) => runAction('download', fileItem(file))}
          />
        )}
      </>
    );
  }

  return (
    <section ref={sectionRef} className="mt-6 rounded-card border border-line bg-surface shadow-card">
      <div className="flex flex-col gap-3 border-b border-line px-3 py-3 sm:px-5 sm:py-4">
        <Breadcrumbs
          path={path ?? []}
          onDropItems={(refs, targetId) =>
            move(refs, targetId, targetId === null ? home : (path?.find((folder) => folder.id === targetId)?.name ?? home))
          }
        />
        <FileToolbar
          search={search.search}
          onSearchChange={search.setSearch}
          view={view}
          onViewChange={setView}
          onNewFolder={() => openDialog({ type: 'create-folder' })}
          onUpload={() => openDialog({ type: 'upload' })}
        />
      </div>
      {/* The listing and the space around it: a drag here draws a box, a right-click opens the folder's menu. */}
      <div
        ref={areaRef}
        className="min-h-48 p-3 sm:p-5"
        onPointerDown={boxSelection.onPointerDown}
        onContextMenu={commands.onAreaContextMenu}
      >
        {content}
      </div>
      {selectedCount > 0 && viewed.fileId === null && (
        // Over the page's header while items are selected, as a phone's selection mode: in reach
        // however far the page scrolls, and nothing under it moves (a double click stays on its item).
        <div className="fixed inset-x-0 top-0 z-50 border-b border-line bg-surface shadow-card">
          <div className="mx-auto flex h-16 max-w-7xl items-center px-2 sm:px-6 lg:px-8">
            <SelectionBar
              className="w-full"
              count={selectedCount}
              starred={starItems ? selection.selected().every(isStarred) : undefined}
              onAction={commands.onBarAction}
              onClear={commands.clear}
            />
          </div>
        </div>
      )}
      {boxSelection.box && (
        <div
          aria-hidden="true"
          className="pointer-events-none fixed z-40 rounded-sm border border-brand-500 bg-brand-500/10"
          style={{
            left: boxSelection.box.left,
            top: boxSelection.box.top,
            width: boxSelection.box.right - boxSelection.box.left,
            height: boxSelection.box.bottom - boxSelection.box.top,
          }}
        />
      )}
      <LiveRegion />
      <BrowserContextMenu
        target={menu.target}
        open={menu.open}
        onClose={menu.close}
        onAction={runAction}
        versionHistory={versionHistory}
        onNewFolder={() => openDialog({ type: 'create-folder' })}
        onUploadFiles={() => openDialog({ type: 'upload' })}
        onUploadFolder={uploadFolder}
        pasteCount={clipboard.clipboard?.items.length ?? 0}
        starred={
          !starItems || menu.target?.kind !== 'item'
            ? undefined
            : menu.target.count > 1
              ? selection.selected().every(isStarred)
              : isStarred(menu.target.item)
        }
        onPaste={clipboard.paste}
      />

      {dragging && <DropOverlay folderName={folderName} />}
      <ItemDialogs
        dialog={dialog}
        onClose={closeDialog}
        folderId={folderId}
        folderName={folderName}
        uploads={uploads}
        sharing={sharing}
        plan={plan}
        onDeleted={(item) => selection.deselect(item.key)}
        onMove={(moving, targetId, targetName) => {
          closeDialog();
          move(
            moving.map((item) => ({ kind: item.kind, id: item.id })),
            targetId,
            targetName,
          );
        }}
        onCopy={(copying, targetId, targetName) => {
          closeDialog();
          clipboard.copyTo(
            copying.map((item) => ({ kind: item.kind, id: item.id })),
            targetId,
            targetName,
          );
        }}
      />
      {viewed.fileId !== null && items && (
        <FolderViewer
          viewer={props.viewer}
          viewed={{ ...viewed, fileId: viewed.fileId }}
          visible={visible}
          items={items}
          onAction={(action, item) => runAction(action, item, true)}
          versionHistory={versionHistory}
        />
      )}
    </section>
  );
}
