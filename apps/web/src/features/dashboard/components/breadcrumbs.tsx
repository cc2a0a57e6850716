import { ChevronRight, Ellipsis, Folder, House } from 'lucide-react';
import { Fragment, useContext, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Folder as FolderEntry } from '@cloudvault/contract/folders';
import { DropdownMenu } from '../../../components/ui/dropdown-menu';
import { cn } from '../../../lib/cn';
import { folderHref } from '../../../lib/folder-href';
import { DRAG_ITEMS_TYPE, type DraggedItemRef } from '../items';
import { DriveScopeContext } from '../slots';

interface BreadcrumbsProps {
  /** Top-level folder first, the open folder last; empty at home. */
  path: FolderEntry[];
  /** Items dragged onto a crumb move into that folder (null: home). */
  onDropItems: (refs: DraggedItemRef[], folderId: string | null) => void;
}

/** 'My Files' and the path to the open folder; each crumb opens its folder and accepts drops. On a phone the middle folders fold into a menu. */
export function Breadcrumbs({ path, onDropItems }: BreadcrumbsProps) {
  const { t } = useTranslation();
  // In a folder shared with the user the first crumb is where shared things are listed.
  const scope = useContext(DriveScopeContext);
  const hrefOf = scope?.folderHref ?? folderHref;
  const crumbs: Array<{ id: string | null; name: string }> = [
    { id: null, name: scope?.topName ?? t('dashboard.breadcrumbs.home') },
    ...path.map((folder) => ({ id: folder.id, name: folder.name })),
  ];

  // On a phone the path keeps its ends (My Files and the open folder); the folders in
  // between are one "…" menu away, so a deep path stays one line.
  const between = crumbs.slice(1, -1);
  const separator = <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-ink-subtle" />;

  return (
    <nav aria-label={t('dashboard.breadcrumbs.label')} className="min-w-0">
      <ol className="flex min-w-0 items-center gap-1 text-sm sm:flex-wrap">
        {crumbs.map((crumb, index) => {
          const current = index === crumbs.length - 1;
          const middle = index > 0 && !current;
          return (
            <Fragment key={crumb.id ?? 'home'}>
              {index === 1 && between.length > 0 && (
                <li className="flex shrink-0 items-center gap-1 sm:hidden">
                  {separator}
                  <DropdownMenu
                    label={t('dashboard.breadcrumbs.hidden')}
                    align="start"
                    triggerClassName="grid h-7 min-w-7 place-items-center rounded-md px-1.5 text-ink-muted hover:bg-surface-muted hover:text-ink"
                    trigger={<Ellipsis aria-hidden="true" className="size-4" />}
                    items={between.map((folder) => ({
                      id: folder.id ?? 'home',
                      label: folder.name,
                      icon: Folder,
                      to: hrefOf(folder.id),
                    }))}
                  />
                </li>
              )}
              <li
                className={cn(
                  'items-center gap-1',
                  middle ? 'hidden sm:flex' : 'flex',
                  index === 0 && crumbs.length > 1 ? 'shrink-0' : 'min-w-0',
                )}
              >
                {index > 0 && separator}
                <Crumb
                  crumb={crumb}
                  current={current}
                  home={index === 0}
                  href={hrefOf(crumb.id)}
                  // Nothing of a share can be moved out of it (to Shared with me).
                  accepting={!current && !(scope && crumb.id === null)}
                  onDropItems={onDropItems}
                />
              </li>
            </Fragment>
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
  href,
  accepting,
  onDropItems,
}: {
  crumb: { id: string | null; name: string };
  current: boolean;
  home: boolean;
  href: string;
  /** Whether items dragged here may move into the crumb's folder. */
  accepting: boolean;
  onDropItems: BreadcrumbsProps['onDropItems'];
}) {
  const [over, setOver] = useState(false);
  const accepts = (event: DragEvent) => accepting && Array.from(event.dataTransfer.types).includes(DRAG_ITEMS_TYPE);

  return (
    <Link
      to={href}
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
