import { useMemo, useState } from 'react';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { useSearchFiles } from '../api/search-files';
import { filterByName, type DriveItem } from '../items';

/** docs/product.md#search: the drive-wide search waits until typing pauses. */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * The search box: it filters the open folder's items at once, and searches the whole drive
 * once typing pauses, for matches in other folders.
 */
export function useDriveSearch(items: DriveItem[] | null, folderId: string | null) {
  const [search, setSearch] = useState('');
  const debouncedSearch = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const term = search.trim();
  const visible = useMemo(() => (items ? filterByName(items, term) : []), [items, term]);

  const driveSearch = useSearchFiles(debouncedSearch);
  const hitsElsewhere = useMemo(() => (driveSearch.data ?? []).filter((file) => file.folderId !== folderId), [driveSearch.data, folderId]);
  const searching = term.length > 0 && (debouncedSearch.trim() !== term || driveSearch.isFetching);

  return {
    search,
    setSearch,
    term,
    /** The open folder's items that match. */
    visible,
    /** Matches in other folders, once the search has caught up with the box; undefined before. */
    hitsElsewhere: debouncedSearch.trim() === term ? hitsElsewhere : undefined,
    searching,
    failed: driveSearch.isError,
    /** The drive-wide results show: something typed, and matches elsewhere, none here, or still searching. */
    showDriveSearch: term.length > 0 && (hitsElsewhere.length > 0 || visible.length === 0 || searching),
  };
}
