import { ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Breadcrumbs of a read-only folder view: the top first, the open folder last (current). */
export function CrumbTrail({ crumbs }: { crumbs: Array<{ key: string; name: string; href: string }> }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('shares.browse.pathLabel')} className="min-w-0">
      <ol className="flex min-w-0 flex-wrap items-center gap-1 text-sm">
        {crumbs.map((crumb, index) => {
          const current = index === crumbs.length - 1;
          return (
            <li key={crumb.key} className="flex min-w-0 items-center gap-1">
              {index > 0 && <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-ink-subtle" />}
              <Link
                to={crumb.href}
                aria-current={current ? 'page' : undefined}
                title={crumb.name}
                className={
                  current
                    ? 'focus-ring max-w-[200px] truncate rounded-md px-2 py-1 font-semibold text-ink'
                    : 'focus-ring max-w-[200px] truncate rounded-md px-2 py-1 text-ink-muted hover:bg-surface-muted hover:text-ink'
                }
              >
                {crumb.name}
              </Link>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
