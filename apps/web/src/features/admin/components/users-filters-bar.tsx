import { Search } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { AdminUserSort, AdminUserStatus } from '@cloudvault/contract/admin';
import type { PlanId } from '@cloudvault/contract/plans';
import { SelectField } from '../../../components/ui/select-field';
import { PLAN_FILTERS, SEARCH_MAX_LENGTH, STATUS_FILTERS, USER_SORTS, type UserFilters } from '../user-filters';

interface UsersFiltersBarProps {
  filters: UserFilters;
  searchText: string;
  onSearchText: (text: string) => void;
  onChange: (changes: Partial<UserFilters>) => void;
}

/** Search by e-mail or name, plan and status filters, and the sort, in one responsive row. */
export function UsersFiltersBar({ filters, searchText, onSearchText, onChange }: UsersFiltersBarProps) {
  const { t } = useTranslation();
  const ALL = 'all';
  return (
    <form
      role="search"
      onSubmit={(event) => event.preventDefault()}
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))]"
    >
      <div className="flex min-w-0 flex-col gap-1.5 sm:col-span-2 lg:col-span-1">
        <label htmlFor="admin-user-search" className="text-sm font-medium text-ink">
          {t('admin.users.search')}
        </label>
        <div className="relative">
          <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-subtle" />
          <input
            id="admin-user-search"
            type="search"
            autoComplete="off"
            spellCheck={false}
            maxLength={SEARCH_MAX_LENGTH}
            placeholder={t('admin.users.searchPlaceholder')}
            value={searchText}
            onChange={(event) => onSearchText(event.target.value)}
            className="block h-11 w-full rounded-control border border-line-strong bg-surface pr-3 pl-9 text-[0.9375rem] text-ink shadow-xs placeholder:text-ink-subtle hover:border-ink-subtle focus:border-brand-500 focus:ring-4 focus:ring-brand-500/20 focus:outline-none"
          />
        </div>
      </div>
      <SelectField<PlanId | typeof ALL>
        label={t('admin.users.plan')}
        value={filters.plan ?? ALL}
        options={[
          { value: ALL, label: t('admin.users.allPlans') },
          ...PLAN_FILTERS.map((plan) => ({ value: plan, label: t(`common.plans.${plan}`) })),
        ]}
        onChange={(plan) => onChange({ plan: plan === ALL ? null : plan })}
      />
      <SelectField<AdminUserStatus | typeof ALL>
        label={t('admin.users.status')}
        value={filters.status ?? ALL}
        options={[
          { value: ALL, label: t('admin.users.allStatuses') },
          ...STATUS_FILTERS.map((status) => ({ value: status, label: t(`admin.status.${status}`) })),
        ]}
        onChange={(status) => onChange({ status: status === ALL ? null : status })}
      />
      <SelectField<AdminUserSort>
        label={t('admin.users.sort')}
        value={filters.sort}
        options={USER_SORTS.map((sort) => ({ value: sort, label: t(`admin.users.sorts.${sort}`) }))}
        onChange={(sort) => onChange({ sort })}
        className="sm:col-span-2 lg:col-span-1"
      />
    </form>
  );
}
