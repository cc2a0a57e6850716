import { useCallback, useState } from 'react';
import type { DriveItem } from '../items';

/**
 * The selected items of the open folder (by key) and the active one, which has the
 * listing's tab stop. `initialKey` starts both on one item (arriving from a search hit).
 */
export function useItemSelection(items: DriveItem[] | null, initialKey: string | null) {
  const [selection, setSelection] = useState<ReadonlySet<string>>(() => new Set(initialKey ? [initialKey] : []));
  const [activeKey, setActiveKey] = useState<string | null>(initialKey);

  const toggle = useCallback((item: DriveItem) => {
    setSelection((current) => {
      const next = new Set(current);
      if (next.has(item.key)) next.delete(item.key);
      else next.add(item.key);
      return next;
    });
  }, []);
  const selectOnly = (key: string) => setSelection(new Set([key]));
  const clear = () => setSelection(new Set());
  const deselect = (key: string) =>
    setSelection((current) => {
      const next = new Set(current);
      next.delete(key);
      return next;
    });

  /** What an action on `item` acts on: the whole selection when the item is part of it. */
  const selectedItems = (item: DriveItem): DriveItem[] =>
    selection.has(item.key) && items ? items.filter((entry) => selection.has(entry.key)) : [item];

  return { selection, activeKey, setActiveKey, toggle, selectOnly, clear, deselect, selectedItems };
}

export type ItemSelection = ReturnType<typeof useItemSelection>;
