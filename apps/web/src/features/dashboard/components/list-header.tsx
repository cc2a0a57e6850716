import { ArrowDown, ArrowUp } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { ListingSort } from '@cloudvault/contract/sort-keys';
import { cn } from '../../../lib/cn';
import { useListingSort } from '../hooks/use-listing-sort';

/**
 * The list view's column headers: the grid's first row (hidden on a phone, where details sit
 * under the name). A click on Name, Size or Modified sorts by it; another click flips the order.
 */
export function ListHeader() {
  const { t } = useTranslation();
  const { listing, sortBy } = useListingSort();

  const sortable = (sort: ListingSort, label: string, className: string, alignEnd = false) => {
    const active = listing.sort === sort;
    const Arrow = listing.order === 'asc' ? ArrowUp : ArrowDown;
    const arrow = <Arrow aria-hidden="true" className={cn('size-3.5', !active && 'invisible')} />;
    return (
      <span
        role="columnheader"
        aria-sort={active ? (listing.order === 'asc' ? 'ascending' : 'descending') : 'none'}
        className={cn(className, alignEnd && 'flex justify-end')}
      >
        <button
          type="button"
          onClick={() => sortBy(sort)}
          className={cn(
            'focus-ring -mx-1.5 inline-flex items-center gap-1 rounded-md px-1.5 py-1 tracking-wide uppercase transition-colors hover:text-ink',
            active && 'text-ink',
          )}
        >
          {/* In a right-aligned column the arrow goes first, so the label lines up with the values. */}
          {alignEnd && arrow}
          {label}
          {!alignEnd && arrow}
        </button>
      </span>
    );
  };

  return (
    <div
      role="row"
      aria-rowindex={1}
      className="hidden h-10 items-center gap-4 border-b border-line px-3 text-xs font-semibold tracking-wide text-ink-subtle uppercase sm:flex"
    >
      {sortable('name', t('dashboard.list.name'), 'min-w-0 flex-1')}
      {sortable('size', t('dashboard.list.size'), 'w-24', true)}
      {sortable('modified', t('dashboard.list.modified'), 'hidden w-32 md:block')}
      <span role="columnheader" className="w-[9.5rem] text-right">
        {t('dashboard.list.actions')}
      </span>
    </div>
  );
}
