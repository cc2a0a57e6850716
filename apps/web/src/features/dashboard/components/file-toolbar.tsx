import { FolderPlus, LayoutGrid, Link2, List, Search, Trash2, Upload, Users, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import type { ViewMode } from '../hooks/use-view-mode';

interface FileToolbarProps {
  search: string;
  onSearchChange: (value: string) => void;
  view: ViewMode;
  onViewChange: (view: ViewMode) => void;
  onNewFolder: () => void;
  onUpload: () => void;
}

/** Search, grid/list, New Folder, Upload and the ways to sharing and Trash. */
export function FileToolbar({ search, onSearchChange, view, onViewChange, onNewFolder, onUpload }: FileToolbarProps) {
  const { t } = useTranslation();
  const toggleClass = (active: boolean) =>
    cn(
      'focus-ring grid size-8 place-items-center rounded-[calc(var(--radius-control)-3px)] transition-colors',
      active ? 'bg-surface text-ink shadow-sm dark:bg-line-strong' : 'text-ink-subtle hover:text-ink',
    );

  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
      <div className="relative min-w-0 flex-1 sm:max-w-sm">
        <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-subtle" />
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
          placeholder={t('dashboard.toolbar.searchPlaceholder')}
          className="block h-9 w-full rounded-control border border-line-strong bg-surface pr-9 pl-9 text-sm text-ink placeholder:text-ink-subtle hover:border-ink-subtle focus:border-brand-500 focus:ring-4 focus:ring-brand-500/20 focus:outline-none [&::-webkit-search-cancel-button]:hidden"
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
      <div className="flex flex-wrap items-center gap-2 sm:ml-auto">
        <div
          role="group"
          aria-label={t('dashboard.toolbar.viewLabel')}
          className="flex rounded-control bg-surface-muted p-0.5 ring-1 ring-line ring-inset"
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
          <span className="sr-only sm:not-sr-only">{t('dashboard.toolbar.trash')}</span>
        </Link>
        <div className="ml-auto flex items-center gap-2 sm:ml-0">
          <Button variant="secondary" size="sm" onClick={onNewFolder} title={t('dashboard.toolbar.newFolder')}>
            <FolderPlus aria-hidden="true" className="size-4" />
            <span className="sr-only min-[400px]:not-sr-only">{t('dashboard.toolbar.newFolder')}</span>
          </Button>
          <Button size="sm" onClick={onUpload}>
            <Upload aria-hidden="true" className="size-4" />
            {t('dashboard.toolbar.upload')}
          </Button>
        </div>
      </div>
    </div>
  );
}
