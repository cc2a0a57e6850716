import { useCallback, useEffect, useState } from 'react';
import { notify } from '../../../lib/notify';
import { DEFAULT_LISTING_ORDER } from '@cloudvault/contract/settings-defaults';
import { LISTING_ORDERS, LISTING_SORTS, type ListingSort } from '@cloudvault/contract/sort-keys';
import { useListingSettings, useSaveListingOrder } from '../api/listing-order';
import { nextSortOnHeader, type ListingOrderChoice } from '../listing-pages';

/** The order last seen in this browser: the first listing asks for it before the settings answer. */
const STORAGE_KEY = 'cloudvault.listingOrder';

function remembered(): ListingOrderChoice {
  try {
    const stored = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<ListingOrderChoice> | null;
    const sort = LISTING_SORTS.find((value) => value === stored?.sort);
    const order = LISTING_ORDERS.find((value) => value === stored?.order);
    return sort && order ? { sort, order } : DEFAULT_LISTING_ORDER;
  } catch {
    return DEFAULT_LISTING_ORDER;
  }
}

function remember(listing: ListingOrderChoice): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(listing));
  } catch {
    // Storage unavailable: the settings still hold it.
  }
}

/**
 * The order the drive lists folders in: the user's settings (`listing`), so the same on every
 * device; this browser's last one until they load. `setListing` saves a new one;
 * `sortBy` is a column header's click (another column ascending, the same one flipped).
 */
export function useListingSort() {
  const settings = useListingSettings();
  const save = useSaveListingOrder();
  const [fallback] = useState(remembered);
  const listing: ListingOrderChoice = settings.data?.listing ?? fallback;
  const { sort, order } = listing;

  useEffect(() => {
    if (settings.data?.listing) remember({ sort, order });
  }, [settings.data?.listing, sort, order]);

  const { mutate } = save;
  const setListing = useCallback(
    (next: ListingOrderChoice) => {
      if (next.sort === sort && next.order === order) return;
      mutate(next, { onError: () => notify.error('dashboard.sort.saveFailed') });
    },
    [mutate, sort, order],
  );
  const sortBy = useCallback((column: ListingSort) => setListing(nextSortOnHeader({ sort, order }, column)), [setListing, sort, order]);

  return { listing, setListing, sortBy };
}
