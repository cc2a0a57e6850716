import { UserSearch } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { PageTitle } from '../../../components/ui/page-title';
import { Spinner } from '../../../components/ui/spinner';
import { serverErrorMessage } from '../../../lib/api-client';
import { useAdminUsers } from '../api/get-users';
import { formatCount } from '../figures';
import { useUserFilters } from '../hooks/use-user-filters';
import { isFiltered, usersQuery } from '../user-filters';
import { AdminHeading, ErrorState, LoadingState } from './page-states';
import { UsersFiltersBar } from './users-filters-bar';
import { UsersList } from './users-list';

/** /admin/users: every account, searched, filtered and sorted on the server a page at a time. */
export function UsersPage() {
  const { t, i18n } = useTranslation();
  const { filters, searchText, setSearchText, update } = useUserFilters();
  const users = useAdminUsers(usersQuery(filters));
  const loaded = users.data?.pages.flatMap((page) => page.users) ?? [];

  let body;
  if (users.data) {
    body =
      loaded.length === 0 ? (
        <div className="flex min-h-48 flex-col items-center justify-center gap-3 rounded-card border border-dashed border-line-strong px-6 text-center">
          <UserSearch aria-hidden="true" className="size-7 text-ink-subtle" />
          <p className="text-sm text-ink-muted">{t(isFiltered(filters) ? 'admin.users.noMatch' : 'admin.users.none')}</p>
        </div>
      ) : (
        <>
          <UsersList users={loaded} />
          <div className="flex flex-col items-center gap-3">
            <p role="status" className="text-sm text-ink-muted">
              {t(users.hasNextPage ? 'admin.users.shownMore' : 'admin.users.shownAll', {
                count: loaded.length,
                formatted: formatCount(loaded.length, i18n.language),
              })}
            </p>
            {users.isFetchNextPageError && (
              <p role="alert" className="text-sm text-danger">
                {serverErrorMessage(users.error) ?? t('admin.loadFailed')}
              </p>
            )}
            {users.hasNextPage && (
              <Button variant="secondary" loading={users.isFetchingNextPage} onClick={() => void users.fetchNextPage()}>
                {t('admin.users.loadMore')}
              </Button>
            )}
          </div>
        </>
      );
  } else if (users.isError) {
    body = <ErrorState error={users.error} onRetry={() => void users.refetch()} />;
  } else {
    body = <LoadingState />;
  }

  return (
    <>
      <PageTitle title={t('admin.users.pageTitle')} />
      <AdminHeading title={t('admin.users.title')} subtitle={t('admin.users.subtitle')}>
        {/* A new search keeps the old results in view meanwhile; this says they are being replaced. */}
        {users.isPlaceholderData && users.isFetching && (
          <Spinner label={t('admin.users.searching')} className="size-5 text-brand-600 dark:text-brand-400" />
        )}
      </AdminHeading>
      <UsersFiltersBar filters={filters} searchText={searchText} onSearchText={setSearchText} onChange={update} />
      <div aria-busy={users.isFetching} className="flex flex-col gap-4">
        {body}
      </div>
    </>
  );
}
