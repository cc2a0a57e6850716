import { History, LayoutDashboard, Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import { cn } from '../../../lib/cn';

/** The operator console's frame: its title and the links between its pages, the page below. */
export function AdminLayout() {
  const { t } = useTranslation();
  const links = [
    { to: '/admin', end: true, label: t('admin.nav.overview'), icon: LayoutDashboard },
    { to: '/admin/users', end: false, label: t('admin.nav.users'), icon: Users },
    { to: '/admin/audit', end: false, label: t('admin.nav.audit'), icon: History },
  ];
  return (
    <div className="flex min-w-0 flex-col gap-6">
      <div>
        <p className="text-sm font-semibold text-brand-600 dark:text-brand-400">{t('admin.eyebrow')}</p>
        <nav aria-label={t('admin.nav.label')} className="mt-3 overflow-x-auto border-b border-line">
          <ul className="-mb-px flex min-w-max gap-1">
            {links.map(({ to, end, label, icon: Icon }) => (
              <li key={to}>
                <NavLink
                  to={to}
                  end={end}
                  className={({ isActive }) =>
                    cn(
                      'focus-ring inline-flex h-11 items-center gap-2 rounded-t-control border-b-2 px-3 text-sm font-semibold whitespace-nowrap transition-colors sm:px-4',
                      isActive
                        ? 'border-brand-600 text-brand-700 dark:border-brand-400 dark:text-brand-300'
                        : 'border-transparent text-ink-muted hover:border-line-strong hover:text-ink',
                    )
                  }
                >
                  <Icon aria-hidden="true" className="hidden size-4 sm:block" />
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <Outlet />
    </div>
  );
}
