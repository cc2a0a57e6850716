import { ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AdminUser } from '@cloudvault/contract/admin';
import { useFormatSize } from '../../../lib/format-size';
import { formatCount, formatDateTime } from '../figures';
import { PlanBadge, UserStatusBadge } from './user-badges';

const detailHref = (user: AdminUser) => `/admin/users/${user.id}`;

/**
 * The accounts found: a table from tablet width up, a list of cards on a phone, where seven
 * columns would not fit. Each name links to the account's detail.
 */
export function UsersList({ users }: { users: AdminUser[] }) {
  const { t, i18n } = useTranslation();
  const formatSize = useFormatSize();
  const language = i18n.language;
  const lastSignIn = (user: AdminUser) => (user.lastSignInAt ? formatDateTime(user.lastSignInAt, language) : t('admin.users.never'));

  return (
    <>
      <div className="hidden overflow-hidden rounded-card border border-line bg-surface shadow-card md:block">
        <table className="w-full table-fixed text-left text-sm">
          <caption className="sr-only">{t('admin.users.tableCaption')}</caption>
          <thead className="border-b border-line bg-surface-muted/60 text-xs text-ink-muted">
            <tr>
              <th scope="col" className="w-[32%] px-4 py-3 font-medium">
                {t('admin.users.columns.account')}
              </th>
              <th scope="col" className="px-3 py-3 font-medium">
                {t('admin.users.columns.plan')}
              </th>
              <th scope="col" className="px-3 py-3 font-medium">
                {t('admin.users.columns.status')}
              </th>
              <th scope="col" className="px-3 py-3 text-right font-medium">
                {t('admin.users.columns.storage')}
              </th>
              <th scope="col" className="hidden px-3 py-3 text-right font-medium lg:table-cell">
                {t('admin.users.columns.files')}
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                {t('admin.users.columns.lastSignIn')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {users.map((user) => (
              <tr key={user.id} className="hover:bg-surface-muted/50">
                <td className="px-4 py-3">
                  <Link to={detailHref(user)} className="focus-ring block min-w-0 rounded-sm">
                    <span className="block truncate font-semibold text-ink hover:text-brand-700 hover:underline dark:hover:text-brand-300">
                      {user.firstName} {user.lastName}
                    </span>
                    <span className="block truncate text-ink-muted">{user.email}</span>
                  </Link>
                </td>
                <td className="px-3 py-3">
                  <PlanBadge user={user} />
                </td>
                <td className="px-3 py-3">
                  <UserStatusBadge status={user.status} />
                </td>
                <td className="px-3 py-3 text-right text-ink tabular-nums">{formatSize(user.storageUsed)}</td>
                <td className="hidden px-3 py-3 text-right text-ink tabular-nums lg:table-cell">
                  {formatCount(user.filesCount, language)}
                </td>
                <td className="px-4 py-3 text-ink-muted">{lastSignIn(user)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <ul aria-label={t('admin.users.tableCaption')} className="flex flex-col gap-3 md:hidden">
        {users.map((user) => (
          <li key={user.id}>
            <Link
              to={detailHref(user)}
              className="focus-ring flex items-center gap-3 rounded-card border border-line bg-surface p-4 shadow-card"
            >
              <div className="min-w-0 flex-1">
                <p className="truncate font-semibold text-ink">
                  {user.firstName} {user.lastName}
                </p>
                <p className="truncate text-sm text-ink-muted">{user.email}</p>
                <div className="mt-2 flex flex-wrap gap-1.5">
                  <PlanBadge user={user} />
                  <UserStatusBadge status={user.status} />
                </div>
                <p className="mt-2 text-xs text-ink-muted">
                  {t('admin.users.cardFigures', { storage: formatSize(user.storageUsed), lastSignIn: lastSignIn(user) })}
                </p>
              </div>
              <ChevronRight aria-hidden="true" className="size-5 shrink-0 text-ink-subtle" />
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
