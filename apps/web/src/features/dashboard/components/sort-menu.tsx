import { ArrowDownWideNarrow, ArrowUpNarrowWide } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LISTING_ORDERS, LISTING_SORTS } from '@cloudvault/contract/sort-keys';
import { buttonClasses } from '../../../components/ui/button';
import { DropdownMenu, type DropdownMenuItem } from '../../../components/ui/dropdown-menu';
import { cn } from '../../../lib/cn';
import { useListingSort } from '../hooks/use-listing-sort';

/**
 * The toolbar's Sort menu: what to sort by and which way, each a set of radio items. The
 * grid has no column headers, and a phone's list hides them; the type has no column at all.
 */
export function SortMenu() {
  const { t } = useTranslation();
  const { listing, setListing } = useListingSort();
  const Arrow = listing.order === 'asc' ? ArrowUpNarrowWide : ArrowDownWideNarrow;
  const items: DropdownMenuItem[] = [
    ...LISTING_SORTS.map((sort) => ({
      id: sort,
      label: t(`dashboard.sort.by.${sort}`),
      checked: listing.sort === sort,
      onSelect: () => setListing({ ...listing, sort }),
    })),
    ...LISTING_ORDERS.map((order, index) => ({
      id: order,
      label: t(`dashboard.sort.order.${order}`),
      checked: listing.order === order,
      separatorBefore: index === 0,
      onSelect: () => setListing({ ...listing, order }),
    })),
  ];

  return (
    <DropdownMenu
      label={t('dashboard.sort.label')}
      items={items}
      triggerClassName={cn(buttonClasses({ variant: 'ghost', size: 'sm' }), 'px-2.5')}
      trigger={
        <>
          <Arrow aria-hidden="true" className="size-4" />
          <span className="sr-only lg:not-sr-only">{t('dashboard.sort.label')}</span>
        </>
      }
    />
  );
}
