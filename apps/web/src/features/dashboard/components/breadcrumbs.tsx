import { ChevronRight, House } from 'lucide-react';
import { useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Folder } from '@cloudvault/contract/folders';
import { cn } from '../../../lib/cn';
import { folderHref } from '../../../lib/folder-href';
import { DRAG_ITEMS_TYPE, type DraggedItemRef } from '../items';

interface BreadcrumbsProps {
  /** Top-level folder first, the open folder last; empty at home. */
  path: Folder[];
  /** Items dragged onto a crumb move into that folder (null: home). */
  onDropItems: (refs: DraggedItemRef[], folderId: string | null) => void;
}

/** 'My Files' and the path to the open folder; each crumb opens its folder and accepts drops. */
export function Breadcrumbs({ path, onDropItems }: BreadcrumbsProps) {
  const { t } = useTranslation();
  const crumbs: Array<{ id: string | null; name: string }> = [
    { id: null, name: t('dashboard.breadcrumbs.home') },
    ...path.map((folder) => ({ id: folder.id, name: folder.name })),
  ];

  return (
    <nav aria-label={t('dashboard.breadcrumbs.label')} className="min-w-0">
      <ol className="flex min-w-0 flex-wrap items-center gap-1 text-sm">
        {crumbs.map((crumb, index) => {
          const current = index === crumbs.length - 1;
          return (
            <li key={crumb.id ?? 'home'} className="flex min-w-0 items-center gap-1">
              {index > 0 && <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-ink-subtle" />}
              <Crumb crumb={crumb} current={current} home={index === 0} onDropItems={onDropItems} />
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

function Crumb({
  crumb,
  current,
  home,
  onDropItems,
}: {
  crumb: { id: string | null; name: string };
  current: boolean;
  home: boolean;
  onDropItems: BreadcrumbsProps['onDropItems'];
}) {
  const [over, setOver] = useState(false);
  const accepts = (event: DragEvent) => !current && Array.from(event.dataTransfer.types).includes(DRAG_ITEMS_TYPE);

  return (
    <Link
      to={folderHref(crumb.id)}
      aria-current={current ? 'page' : undefined}
      title={crumb.name}
      onDragOver={(event) => {
        if (!accepts(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        if (!accepts(event)) return;
        event.preventDefault();
        setOver(false);
        try {
          const refs = JSON.parse(event.dataTransfer.getData(DRAG_ITEMS_TYPE)) as DraggedItemRef[];
          if (Array.isArray(refs)) onDropItems(refs, crumb.id);
        } catch {
          // Not our data after all.
        }
      }}
      className={cn(
        'focus-ring inline-flex max-w-[200px] min-w-0 items-center gap-1.5 rounded-md px-2 py-1 transition-colors',
        current ? 'font-semibold text-ink' : 'text-ink-muted hover:bg-surface-muted hover:text-ink',
        over && 'bg-brand-50 text-brand-700 ring-2 ring-brand-500 dark:bg-brand-500/15 dark:text-brand-200',
      )}
    >
      {home && <House aria-hidden="true" className="size-4 shrink-0" />}
      <span className="truncate">{crumb.name}</span>
    </Link>
  );
}
