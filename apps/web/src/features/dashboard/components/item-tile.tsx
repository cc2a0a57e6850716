import { Check } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FileIcon, FolderIcon } from '../../../components/ui/file-icon';
import { ThumbnailImage } from '../../../components/ui/thumbnail-image';
import { OfflineMarker } from '../../../components/ui/offline-marker';
import { cn } from '../../../lib/cn';
import { signedInFileSource } from '../../../lib/file-source';
import { useFormatSize } from '../../../lib/format-size';
import { useItemInteractions } from '../hooks/use-item-interactions';
import { formatItemDate } from '../item-date';
import { ItemActions } from './item-actions';
import { cellAttributes, type ItemCellProps } from './item-cell';

interface ItemTileProps extends ItemCellProps {
  /** Small tiles (phone): no date. */
  compact: boolean;
}

/** An item in the grid view: icon or thumbnail, name, size and date, its actions on hover or focus. */
export function ItemTile(props: ItemTileProps) {
  const formatSize = useFormatSize();
  const { item, tabbable, selected, animationDelay, locale, compact, narrow } = props;
  const { t } = useTranslation();
  const { dropTarget, handlers } = useItemInteractions(item, narrow, props.interactions);
  const isFolder = item.kind === 'folder';
  const meta = isFolder ? t('dashboard.item.folder') : formatSize(item.file.size);
  const date = compact ? '' : formatItemDate(isFolder ? item.folder.updatedAt : item.file.updatedAt, locale);
  const labelId = useId();

  return (
    <div
      {...cellAttributes(props, handlers, labelId)}
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
        <p className="mt-0.5 flex items-center gap-1 truncate text-xs text-ink-muted">
          {selected && isFolder && narrow ? (
            <span className="font-medium text-brand-700 dark:text-brand-300">{t('dashboard.item.doubleTapHint')}</span>
          ) : (
            <>
              <span className="truncate">
                {meta}
                {date && <span className="text-ink-subtle"> · {date}</span>}
              </span>{' '}
              {/* After the details: the cell's name starts with all its visible text (axe's label-content-name-mismatch). */}
              {!isFolder && <OfflineMarker file={item.file} />}
            </>
          )}
        </p>
      </div>
      <ItemActions
        item={item}
        onAction={props.onAction}
        versionHistory={props.versionHistory}
        tabbable={tabbable}
        count={selected ? props.selectionCount : 1}
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
