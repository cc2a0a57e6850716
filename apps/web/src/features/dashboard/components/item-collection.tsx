import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { Check } from 'lucide-react';
import {
  startTransition,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type DragEvent,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { FileIcon, FolderIcon } from '../../../components/ui/file-icon';
import { ThumbnailImage } from '../../../components/ui/thumbnail-image';
import { useAfterFirstPaint } from '../../../hooks/use-after-first-paint';
import { cn } from '../../../lib/cn';
import { signedInFileSource } from '../../../lib/file-source';
import { useFormatSize } from '../../../lib/format-size';
import { columnsForWidth } from '../grid-columns';
import type { ViewMode } from '../hooks/use-view-mode';
import { DRAG_ITEMS_TYPE, type DraggedItemRef, type DriveItem } from '../items';
import type { VersionHistorySlot } from '../slots';
import { staggerDelay, STAGGER_TOTAL_MS } from '../stagger';
import { ItemActions, type ItemAction } from './item-actions';

const GRID_TILE_HEIGHT = 156;
/** Two columns on a phone: shorter tiles, no date. */
const COMPACT_TILE_HEIGHT = 128;
const GRID_GAP = 12;
const LIST_ROW_HEIGHT = 60;
/** Rows rendered beyond the screen on each side, so a scroll shows no blank rows. */
const OVERSCAN_ROWS = 4;

export interface ItemCollectionProps {
  items: DriveItem[];
  view: ViewMode;
  selection: ReadonlySet<string>;
  /** The item with the roving tab stop (arrow keys move it). */
  activeKey: string | null;
  /** Scroll to and focus the active item once shown (arriving from a search hit). */
  revealActive?: boolean;
  /** Touch or narrow screen: folders open on a second tap instead of a double click. */
  narrow: boolean;
  /** Changes when another folder is shown: its tiles come in with the stagger. */
  animationKey: string;
  /** A click or tap on an item; the page decides (select, toggle, open on a second tap). */
  onItemClick: (item: DriveItem, event: MouseEvent) => void;
  onItemDoubleClick: (item: DriveItem) => void;
  /** Keyboard: the arrows moved to this item. */
  onMoveTo: (item: DriveItem) => void;
  onToggle: (item: DriveItem) => void;
  onOpen: (item: DriveItem) => void;
  /** Focus this item (scrolled into view): the viewer closed on it. A new object asks again. */
  focusRequest?: { key: string } | null;
  onAction: (action: ItemAction, item: DriveItem) => void;
  /** A file's version history, in its menu. */
  versionHistory: VersionHistorySlot;
  onClearSelection: () => void;
  /** What a drag of this item carries: the whole selection when it is part of it. */
  dragRefsFor: (item: DriveItem) => DraggedItemRef[];
  onDropOnFolder: (refs: DraggedItemRef[], folderId: string) => void;
}

const readRefs = (event: DragEvent): DraggedItemRef[] | null => {
  try {
    const refs = JSON.parse(event.dataTransfer.getData(DRAG_ITEMS_TYPE)) as unknown;
    return Array.isArray(refs) ? (refs as DraggedItemRef[]) : null;
  } catch {
    return null;
  }
};

const carriesItems = (event: DragEvent) => Array.from(event.dataTransfer.types).includes(DRAG_ITEMS_TYPE);

/** One formatter per language: making one costs far more than using it, and every tile shows a date. */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function formatDate(value: string, locale: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric' });
    dateFormats.set(locale, format);
  }
  return format.format(date);
}

/**
 * The folder's items as a grid of tiles or a list, rendering only the rows in view (so
 * 10,000 items scroll smoothly), with the WAI-ARIA grid keyboard model: one tab stop,
 * arrows move, Enter opens, Space toggles, Delete asks to delete, F2 renames.
 */
export function ItemCollection(props: ItemCollectionProps) {
  const { items, view, activeKey, animationKey } = props;
  const { t, i18n } = useTranslation();
  const containerRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [scrollMargin, setScrollMargin] = useState(0);

  // Columns follow the width of the area, not of the window.
  useLayoutEffect(() => {
    const element = containerRef.current;
    if (!element) return;
    const measure = () => {
      setWidth(element.clientWidth);
      setScrollMargin(element.getBoundingClientRect().top + window.scrollY);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  // Before the area is measured, the window's width is the closest guess (a phone's two
  // columns, not a desktop's five rendered and thrown away).
  const columns = view === 'grid' ? columnsForWidth(width || window.innerWidth) : 1;
  const compact = view === 'grid' && columns <= 2;
  const tileHeight = compact ? COMPACT_TILE_HEIGHT : GRID_TILE_HEIGHT;
  const rowHeight = view === 'grid' ? tileHeight + GRID_GAP : LIST_ROW_HEIGHT;
  const rowCount = Math.ceil(items.length / columns);

  // The items render first in a transition, which React splits into short tasks: opening a
  // folder does not hold a phone's main thread (input, the rest of the page) for all its tiles
  // at once. Later changes (a rename, an upload) render at once as usual.
  const [shown, setShown] = useState(false);
  useEffect(() => startTransition(() => setShown(true)), []);
  // Rows past the screen are there for scrolling, which cannot start before the rows in view
  // are painted: those come first with one row more, the rest of the margin a frame later
  // (half the tiles a phone's first paint of a folder styles and lays out).
  const rowsPainted = useAfterFirstPaint(shown);

  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => rowHeight,
    overscan: rowsPainted ? OVERSCAN_ROWS : 1,
    scrollMargin,
  });
  useEffect(() => {
    virtualizer.measure();
  }, [virtualizer, rowHeight, columns]);

  // The stagger runs for a newly shown folder only, not for rows scrolled into view later.
  const [animatingKey, setAnimatingKey] = useState<string | null>(animationKey);
  useEffect(() => {
    setAnimatingKey(animationKey);
    const timer = window.setTimeout(() => setAnimatingKey(null), STAGGER_TOTAL_MS + 100);
    return () => window.clearTimeout(timer);
  }, [animationKey]);
  const animating = animatingKey === animationKey;

  const indexOfKey = useCallback((key: string | null) => (key ? items.findIndex((item) => item.key === key) : -1), [items]);
  const activeIndex = Math.max(0, indexOfKey(activeKey));
  const tabStopKey = items[activeIndex]?.key ?? null;

  /** Scrolls the item into view and focuses it once its row is rendered. */
  const focusIndex = useCallback(
    (index: number) => {
      const item = items[index];
      if (!item) return;
      virtualizer.scrollToIndex(Math.floor(index / columns), { align: 'auto' });
      let attempts = 0;
      const tryFocus = () => {
        const element = containerRef.current?.querySelector<HTMLElement>(`[data-item-key="${CSS.escape(item.key)}"]`);
        if (element) element.focus({ preventScroll: true });
        else if ((attempts += 1) < 10) requestAnimationFrame(tryFocus);
      };
      // At once when the item is on screen (the next key press must land on it), else
      // once its row has rendered.
      tryFocus();
    },
    [items, columns, virtualizer],
  );

  // Arriving from "Show in folder": bring the found file into view, once.
  const revealed = useRef(false);
  useEffect(() => {
    if (!props.revealActive || revealed.current || width === 0 || !shown) return;
    revealed.current = true;
    const index = indexOfKey(activeKey);
    if (index >= 0) focusIndex(index);
  }, [props.revealActive, activeKey, width, shown, indexOfKey, focusIndex]);

  const { focusRequest } = props;
  useEffect(() => {
    if (!focusRequest) return;
    const index = indexOfKey(focusRequest.key);
    if (index >= 0) focusIndex(index);
    // Only a new request focuses: a changed listing must not pull the focus back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusRequest]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    // Keys on an item's own buttons and menus are theirs.
    if (!target.dataset.itemKey) return;
    const index = indexOfKey(target.dataset.itemKey);
    const item = items[index];
    if (!item) return;
    const last = items.length - 1;
    let next: number | null = null;
    switch (event.key) {
      case 'ArrowRight':
        next = view === 'grid' ? Math.min(last, index + 1) : null;
        break;
      case 'ArrowLeft':
        next = view === 'grid' ? Math.max(0, index - 1) : null;
        break;
      case 'ArrowDown':
        next = Math.min(last, index + columns);
        break;
      case 'ArrowUp':
        next = Math.max(0, index - columns);
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = last;
        break;
      case 'PageDown':
        next = Math.min(last, index + columns * 5);
        break;
      case 'PageUp':
        next = Math.max(0, index - columns * 5);
        break;
      case 'Enter':
        event.preventDefault();
        props.onOpen(item);
        return;
      case ' ':
        event.preventDefault();
        props.onToggle(item);
        return;
      case 'Delete':
      case 'Backspace':
        event.preventDefault();
        props.onAction('delete', item);
        return;
      case 'F2':
        event.preventDefault();
        props.onAction('rename', item);
        return;
      case 'Escape':
        props.onClearSelection();
        return;
      default:
        return;
    }
    if (next === null) return;
    event.preventDefault();
    const nextItem = items[next];
    if (!nextItem) return;
    props.onMoveTo(nextItem);
    focusIndex(next);
  };

  const virtualRows = shown ? virtualizer.getVirtualItems() : [];
  const firstRow = virtualRows[0]?.index ?? 0;

  return (
    <div
      ref={containerRef}
      role="grid"
      aria-label={t('dashboard.list.label')}
      aria-multiselectable="true"
      aria-rowcount={rowCount + (view === 'list' ? 1 : 0)}
      onKeyDown={onKeyDown}
      data-view={view}
      className="relative"
    >
      {view === 'list' && (
        <div
          role="row"
          aria-rowindex={1}
          className="hidden h-10 items-center gap-4 border-b border-line px-3 text-xs font-semibold tracking-wide text-ink-subtle uppercase sm:flex"
        >
          <span role="columnheader" className="min-w-0 flex-1">
            {t('dashboard.list.name')}
          </span>
          <span role="columnheader" className="w-24 text-right">
            {t('dashboard.list.size')}
          </span>
          <span role="columnheader" className="hidden w-32 md:block">
            {t('dashboard.list.modified')}
          </span>
          <span role="columnheader" className="w-[9.5rem] text-right">
            {t('dashboard.list.actions')}
          </span>
        </div>
      )}
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualRows.map((row) => {
          const rowItems = items.slice(row.index * columns, row.index * columns + columns);
          return (
            <div
              key={row.key}
              role="row"
              aria-rowindex={row.index + (view === 'list' ? 2 : 1)}
              className={cn('absolute inset-x-0 top-0', view === 'grid' ? 'grid gap-3' : 'block')}
              style={{
                height: view === 'grid' ? tileHeight : LIST_ROW_HEIGHT,
                transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
                gridTemplateColumns: view === 'grid' ? `repeat(${columns}, minmax(0, 1fr))` : undefined,
              }}
            >
              {rowItems.map((item, column) => {
                const order = (row.index - firstRow) * columns + column;
                const common = {
                  item,
                  props,
                  tabbable: item.key === tabStopKey,
                  selected: props.selection.has(item.key),
                  animationDelay: animating ? staggerDelay(order) : null,
                  locale: i18n.language,
                  compact,
                };
                return view === 'grid' ? <ItemTile key={item.key} {...common} /> : <ItemRow key={item.key} {...common} />;
              })}
            </div>
          );
        })}
      </div>
    </div>
  );
}

interface ItemViewProps {
  item: DriveItem;
  props: ItemCollectionProps;
  tabbable: boolean;
  selected: boolean;
  /** ms, or null for no entrance animation. */
  animationDelay: number | null;
  locale: string;
  /** Small tiles (phone): no date. */
  compact: boolean;
}

/** Pointer, drag and drop behaviour shared by tiles and rows. */
function useItemInteractions({ item, props }: ItemViewProps) {
  const [dropTarget, setDropTarget] = useState(false);
  const isFolder = item.kind === 'folder';
  return {
    dropTarget,
    handlers: {
      onClick: (event: MouseEvent) => props.onItemClick(item, event),
      onDoubleClick: () => props.onItemDoubleClick(item),
      draggable: !props.narrow,
      onDragStart: (event: DragEvent) => {
        const refs = props.dragRefsFor(item);
        event.dataTransfer.setData(DRAG_ITEMS_TYPE, JSON.stringify(refs));
        event.dataTransfer.setData('text/plain', item.name);
        event.dataTransfer.effectAllowed = 'move';
      },
      onDragOver: isFolder
        ? (event: DragEvent) => {
            if (!carriesItems(event)) return;
            event.preventDefault();
            event.dataTransfer.dropEffect = 'move';
            if (!dropTarget) setDropTarget(true);
          }
        : undefined,
      onDragLeave: isFolder ? () => setDropTarget(false) : undefined,
      onDrop: isFolder
        ? (event: DragEvent) => {
            if (!carriesItems(event)) return;
            event.preventDefault();
            setDropTarget(false);
            const refs = readRefs(event);
            if (refs) props.onDropOnFolder(refs, item.id);
          }
        : undefined,
    },
  };
}

function ItemTile(view: ItemViewProps) {
  const formatSize = useFormatSize();
  const { item, props, tabbable, selected, animationDelay, locale, compact } = view;
  const { t } = useTranslation();
  const { dropTarget, handlers } = useItemInteractions(view);
  const isFolder = item.kind === 'folder';
  const meta = isFolder ? t('dashboard.item.folder') : formatSize(item.file.size);
  const date = compact ? '' : formatDate(isFolder ? item.folder.updatedAt : item.file.updatedAt, locale);
  const labelId = useId();

  return (
    <div
      {...cellAttributes(view, handlers, labelId)}
      className={cn(
        'group focus-ring relative flex h-full cursor-default flex-col rounded-xl border bg-surface p-3 text-left transition-[border-color,box-shadow,background-color] duration-150 select-none',
        animationDelay !== null && 'cv-tile-in',
        selected
          ? 'border-brand-400 bg-brand-50/70 shadow-sm ring-1 ring-brand-400 dark:border-brand-500 dark:bg-brand-500/10 dark:ring-brand-500'
          : 'border-line hover:border-line-strong hover:shadow-card',
        dropTarget && 'border-brand-500 bg-brand-50 ring-2 ring-brand-500 dark:bg-brand-500/15',
      )}
    >
      {!isFolder && (
        // Over the icon's corner and above the name: its arrival moves nothing.
        <ThumbnailImage
          source={signedInFileSource}
          file={item.file}
          className="pointer-events-none absolute top-1.5 left-1.5 h-[calc(100%-3.625rem)] w-[calc(100%-0.75rem)] rounded-lg"
        />
      )}
      <div className="flex items-start justify-between gap-2">
        {isFolder ? (
          <FolderIcon size={compact ? 'md' : 'lg'} />
        ) : (
          <FileIcon mimetype={item.file.mimetype} name={item.name} size={compact ? 'md' : 'lg'} />
        )}
        {selected && (
          <span className="relative grid size-5 place-items-center rounded-full bg-brand-600 text-white shadow-sm dark:bg-brand-500">
            <Check aria-hidden="true" className="size-3.5" strokeWidth={3} />
          </span>
        )}
      </div>
      {/* The cell's name. The spaces between its blocks keep name and details apart for tools that join text (axe). */}
      <div id={labelId} className="mt-auto min-w-0">
        <p className="truncate text-sm font-semibold text-ink" title={item.name}>
          {item.name}
        </p>{' '}
        <p className="mt-0.5 truncate text-xs text-ink-muted">
          {selected && isFolder && props.narrow ? (
            <span className="font-medium text-brand-700 dark:text-brand-300">{t('dashboard.item.doubleTapHint')}</span>
          ) : (
            <>
              {meta}
              {date && <span className="text-ink-subtle"> · {date}</span>}
            </>
          )}
        </p>
      </div>
      <ItemActions
        item={item}
        onAction={props.onAction}
        versionHistory={props.versionHistory}
        tabbable={tabbable}
        className={cn(
          'absolute top-2 right-2 rounded-xl border border-line bg-surface/95 p-0.5 shadow-sm backdrop-blur transition-opacity',
          // The open menu lives outside the tile (a portal): its button stays shown meanwhile.
          selected
            ? 'opacity-100'
            : 'opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 has-[[aria-expanded=true]]:opacity-100',
        )}
      />
    </div>
  );
}

/**
 * What a tile and a row share as one cell of the grid: its role, state, keys and handlers.
 * Its name is its visible text (name, size, date), so it starts with what a person sees
 * and says (WCAG 2.5.3); the action buttons inside stay out of it.
 */
function cellAttributes(view: ItemViewProps, handlers: ReturnType<typeof useItemInteractions>['handlers'], labelId: string) {
  const { item, selected, tabbable, animationDelay } = view;
  return {
    role: 'gridcell',
    'aria-selected': selected,
    'aria-labelledby': labelId,
    'data-item-key': item.key,
    'data-kind': item.kind,
    tabIndex: tabbable ? 0 : -1,
    ...handlers,
    style: animationDelay !== null ? { animationDelay: `${animationDelay}ms` } : undefined,
  };
}

function ItemRow(view: ItemViewProps) {
  const formatSize = useFormatSize();
  const { item, props, tabbable, selected, animationDelay, locale } = view;
  const { t } = useTranslation();
  const { dropTarget, handlers } = useItemInteractions(view);
  const isFolder = item.kind === 'folder';
  const date = formatDate(isFolder ? item.folder.updatedAt : item.file.updatedAt, locale);
  const hint = selected && isFolder && props.narrow;
  const labelId = useId();

  return (
    <div
      {...cellAttributes(view, handlers, labelId)}
      className={cn(
        'group focus-ring flex h-full cursor-default items-center gap-3 rounded-lg border-b border-transparent px-3 select-none sm:gap-4',
        animationDelay !== null && 'cv-tile-in',
        selected ? 'bg-brand-50 dark:bg-brand-500/10' : 'hover:bg-surface-muted/70',
        dropTarget && 'bg-brand-50 ring-2 ring-brand-500 dark:bg-brand-500/15',
      )}
    >
      {isFolder ? (
        <FolderIcon size="sm" />
      ) : (
        <span className="relative shrink-0">
          <FileIcon mimetype={item.file.mimetype} name={item.name} size="sm" />
          <ThumbnailImage source={signedInFileSource} file={item.file} className="absolute inset-0 size-full rounded-lg" />
        </span>
      )}
      {/* Size and date sit under the name on a phone and in their own columns from sm up:
          one copy of each, so the cell's name (this text) says each once. The spaces between
          blocks keep the words apart for tools that join text (axe). */}
      <div id={labelId} className="flex min-w-0 flex-1 flex-col sm:flex-row sm:items-center sm:gap-4">
        <p className="truncate text-sm font-medium text-ink sm:min-w-0 sm:flex-1" title={item.name}>
          {item.name}
        </p>{' '}
        {hint && (
          <p className="truncate text-xs font-medium text-brand-700 sm:hidden dark:text-brand-300">{t('dashboard.item.doubleTapHint')}</p>
        )}
        <p className={cn('truncate text-xs text-ink-muted sm:contents', hint && 'hidden')}>
          <span className="tabular-nums sm:w-24 sm:shrink-0 sm:text-right sm:text-sm">
            {isFolder ? (
              <>
                <span className="sm:sr-only">{t('dashboard.item.folder')}</span>
                <span aria-hidden="true" className="hidden sm:inline">
                  {t('dashboard.list.noSize')}
                </span>
              </>
            ) : (
              formatSize(item.file.size)
            )}
          </span>{' '}
          {date && (
            <>
              <span aria-hidden="true" className="sm:hidden">
                {' · '}
              </span>
              <span className="sm:hidden md:block md:w-32 md:shrink-0 md:text-sm">{date}</span>
            </>
          )}
        </p>
      </div>
      <ItemActions
        item={item}
        onAction={props.onAction}
        versionHistory={props.versionHistory}
        tabbable={tabbable}
        menuOnlyOnPhones={!selected}
        className={cn(
          'shrink-0 justify-end transition-opacity sm:w-[9.5rem]',
          selected
            ? 'opacity-100'
            : 'opacity-100 sm:opacity-0 sm:group-focus-within:opacity-100 sm:group-hover:opacity-100 sm:has-[[aria-expanded=true]]:opacity-100',
        )}
      />
    </div>
  );
}
