import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { filtersFromParams, filtersToParams, type UserFilters } from '../user-filters';

/** How long typing must pause before the list is searched: one request per word, not per key. */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * The Users page's filters, kept in the address. The search box answers each key at once
 * while the address (and so the request) follows once typing pauses.
 */
export function useUserFilters() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromParams(params), [params]);
  const [searchText, setSearchText] = useState(filters.search);
  const debouncedSearch = useDebouncedValue(searchText, SEARCH_DEBOUNCE_MS);

  // The address changed from outside (the Users link clears the search): the box follows it.
  const [addressSearch, setAddressSearch] = useState(filters.search);
  if (filters.search !== addressSearch) {
    setAddressSearch(filters.search);
    if (filters.search !== debouncedSearch) setSearchText(filters.search);
  }

  const update = useCallback(
    (changes: Partial<UserFilters>) =>
      setParams((current) => filtersToParams({ ...filtersFromParams(current), ...changes }), { replace: true }),
    [setParams],
  );

  // Only a new pause in typing writes the address, so an outside change is not written back over.
  const written = useRef(debouncedSearch);
  useEffect(() => {
    if (debouncedSearch === written.current) return;
    written.current = debouncedSearch;
    update({ search: debouncedSearch });
  }, [debouncedSearch, update]);

  return { filters, searchText, setSearchText, update };
}
