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

/** An item in the list view: icon, name, size and date in columns from sm up, its actions at the end. */
export function ItemRow(props: ItemCellProps) {
  const formatSize = useFormatSize();
  const { item, tabbable, selected, animationDelay, locale, narrow } = props;
  const { t } = useTranslation();
  const { dropTarget, handlers } = useItemInteractions(item, narrow, props.interactions);
  const isFolder = item.kind === 'folder';
  const date = formatItemDate(isFolder ? item.folder.updatedAt : item.file.updatedAt, locale);
  const hint = selected && isFolder && narrow;
  const labelId = useId();

  return (
    <div
      {...cellAttributes(props, handlers, labelId)}
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
          )}{' '}
          {/* After the details: the cell's name starts with all its visible text (axe's label-content-name-mismatch). */}
          {!isFolder && <OfflineMarker file={item.file} />}
        </p>
      </div>
      <ItemActions
        item={item}
        onAction={props.onAction}
        versionHistory={props.versionHistory}
        tabbable={tabbable}
        count={selected ? props.selectionCount : 1}
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
