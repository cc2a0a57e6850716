import { Ellipsis, FolderPlus, LayoutGrid, Link2, List, Search, Trash2, Upload, Users, X } from 'lucide-react';
import { useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { DropdownMenu } from '../../../components/ui/dropdown-menu';
import { cn } from '../../../lib/cn';
import { useMediaQuery } from '../hooks/use-media-query';
import type { ViewMode } from '../hooks/use-view-mode';
import { DriveScopeContext } from '../slots';
import { SortMenu } from './sort-menu';

interface FileToolbarProps {
  search: string;
  onSearchChange: (value: string) => void;
  view: ViewMode;
  onViewChange: (view: ViewMode) => void;
  onNewFolder: () => void;
  onUpload: () => void;
}

/**
 * Search, grid/list, Sort, New Folder, Upload and the ways to sharing and Trash. On a phone it
 * stays one row: search, Sort, Upload and a More menu holding the rest.
 */
export function FileToolbar({ search, onSearchChange, view, onViewChange, onNewFolder, onUpload }: FileToolbarProps) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 639px)');
  // Inside a folder shared with the user the links to their own sharing and Trash are left out: the crumbs lead back.
  const scoped = useContext(DriveScopeContext) !== null;
  const toggleClass = (active: boolean) =>
    cn(
      'focus-ring grid size-8 place-items-center rounded-[calc(var(--radius-control)-3px)] transition-colors',
      active ? 'bg-surface text-ink shadow-sm dark:bg-line-strong' : 'text-ink-subtle hover:text-ink',
    );

  return (
    <div className="flex items-center gap-1.5 sm:flex-wrap sm:gap-3">
      <div className="relative min-w-0 flex-1 sm:min-w-48 sm:max-w-sm">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-ink-subtle sm:left-3"
        />
        <input
          type="search"
          value={search}
          onChange={(event) => onSearchChange(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && search) {
              event.preventDefault();
              onSearchChange('');
            }
          }}
          aria-label={t('dashboard.toolbar.searchLabel')}
          // A phone's box is narrow: "Search" fits where "Search files" would be cut (the name stays whole).
          placeholder={t(phone ? 'dashboard.toolbar.searchPlaceholderShort' : 'dashboard.toolbar.searchPlaceholder')}
          className={cn(
            'block h-9 w-full rounded-control border border-line-strong bg-surface pl-8 sm:pl-9 text-sm text-ink placeholder:text-ink-subtle hover:border-ink-subtle focus:border-brand-500 focus:ring-4 focus:ring-brand-500/20 focus:outline-none [&::-webkit-search-cancel-button]:hidden',
            // Room for the clear button only while there is something to clear.
            search ? 'pr-9' : 'pr-3',
          )}
        />
        {search && (
          <button
            type="button"
            onClick={() => onSearchChange('')}
            aria-label={t('dashboard.toolbar.clearSearch')}
            className="focus-ring absolute top-1/2 right-1.5 grid size-6 -translate-y-1/2 place-items-center rounded-md text-ink-subtle hover:bg-surface-muted hover:text-ink"
          >
            <X aria-hidden="true" className="size-3.5" />
          </button>
        )}
      </div>
      <div className="ml-auto flex shrink-0 items-center gap-1.5 sm:gap-2">
        <div
          role="group"
          aria-label={t('dashboard.toolbar.viewLabel')}
          className="hidden rounded-control bg-surface-muted p-0.5 ring-1 ring-line ring-inset sm:flex"
        >
          <button
            type="button"
            aria-label={t('dashboard.toolbar.gridView')}
            title={t('dashboard.toolbar.gridView')}
            aria-pressed={view === 'grid'}
            onClick={() => onViewChange('grid')}
            className={toggleClass(view === 'grid')}
          >
            <LayoutGrid aria-hidden="true" className="size-4" />
          </button>
          <button
            type="button"
            aria-label={t('dashboard.toolbar.listView')}
            title={t('dashboard.toolbar.listView')}
            aria-pressed={view === 'list'}
            onClick={() => onViewChange('list')}
            className={toggleClass(view === 'list')}
          >
            <List aria-hidden="true" className="size-4" />
          </button>
        </div>
        <SortMenu />
        {/* From sm up; a phone has them in the More menu. */}
        <div className="hidden sm:contents">
          {!scoped && (
            <>
              <Link
                to="/shared"
                title={t('dashboard.toolbar.sharedWithMe')}
                className={cn(buttonClasses({ variant: 'ghost', size: 'sm' }), 'px-2.5')}
              >
                <Users aria-hidden="true" className="size-4" />
                <span className="sr-only lg:not-sr-only">{t('dashboard.toolbar.sharedWithMe')}</span>
              </Link>
              <Link
                to="/shares"
                title={t('dashboard.toolbar.manageShares')}
                className={cn(buttonClasses({ variant: 'ghost', size: 'sm' }), 'px-2.5')}
              >
                <Link2 aria-hidden="true" className="size-4" />
                <span className="sr-only lg:not-sr-only">{t('dashboard.toolbar.manageShares')}</span>
              </Link>
              <Link to="/trash" className={cn(buttonClasses({ variant: 'ghost', size: 'sm' }), 'px-2.5')}>
                <Trash2 aria-hidden="true" className="size-4" />
                {t('dashboard.toolbar.trash')}
              </Link>
            </>
          )}
          <Button variant="secondary" size="sm" onClick={onNewFolder}>
            <FolderPlus aria-hidden="true" className="size-4" />
            {t('dashboard.toolbar.newFolder')}
          </Button>
        </div>
        <Button size="sm" onClick={onUpload}>
          <Upload aria-hidden="true" className="size-4" />
          {t('dashboard.toolbar.upload')}
        </Button>
        {/* A phone's row has room for search, Sort and Upload: the rest is one tap further. */}
        <div className="sm:hidden">
          <DropdownMenu
            label={t('dashboard.toolbar.more')}
            triggerClassName={cn(buttonClasses({ variant: 'ghost', size: 'sm' }), 'px-2.5')}
            trigger={<Ellipsis aria-hidden="true" className="size-4" />}
            items={[
              { id: 'new-folder', label: t('dashboard.toolbar.newFolder'), icon: FolderPlus, onSelect: onNewFolder },
              {
                id: 'grid',
                label: t('dashboard.toolbar.gridView'),
                icon: LayoutGrid,
                checked: view === 'grid',
                separatorBefore: true,
                onSelect: () => onViewChange('grid'),
              },
              {
                id: 'list',
                label: t('dashboard.toolbar.listView'),
                icon: List,
                checked: view === 'list',
                onSelect: () => onViewChange('list'),
              },
              ...(scoped
                ? []
                : [
                    { id: 'shared', label: t('dashboard.toolbar.sharedWithMe'), icon: Users, to: '/shared', separatorBefore: true },
                    { id: 'shares', label: t('dashboard.toolbar.manageShares'), icon: Link2, to: '/shares' },
                    { id: 'trash', label: t('dashboard.toolbar.trash'), icon: Trash2, to: '/trash' },
                  ]),
            ]}
          />
        </div>
      </div>
    </div>
  );
}
