import { useCallback, useState } from 'react';
import type { DriveItem } from '../items';
import { rangeKeys } from '../selection-range';

/**
 * The selected items of the open folder (by key), the active one, which has the listing's
 * tab stop, and the anchor a Shift-click's range starts from (the item last clicked or
 * toggled). `initialKey` starts all three on one item (arriving from a search hit).
 */
export function useItemSelection(items: DriveItem[] | null, initialKey: string | null) {
  const [selection, setSelection] = useState<ReadonlySet<string>>(() => new Set(initialKey ? [initialKey] : []));
  const [activeKey, setActiveKey] = useState<string | null>(initialKey);
  const [anchorKey, setAnchorKey] = useState<string | null>(initialKey);

  const toggle = useCallback((item: DriveItem) => {
    setAnchorKey(item.key);
    setSelection((current) => {
      const next = new Set(current);
      if (next.has(item.key)) next.delete(item.key);
      else next.add(item.key);
      return next;
    });
  }, []);
  const selectOnly = (key: string) => {
    setAnchorKey(key);
    setSelection(new Set([key]));
  };
  /** From the anchor to `key` in the shown `order`; added to the selection when `additive` (Ctrl or Cmd held too). */
  const selectRange = (key: string, order: readonly string[], additive: boolean) => {
    const range = rangeKeys(order, anchorKey, key);
    setSelection((current) => new Set(additive ? [...current, ...range] : range));
    if (anchorKey === null) setAnchorKey(key);
  };
  /** Exactly these keys (select all, a box). */
  const selectKeys = useCallback((keys: Iterable<string>) => setSelection(new Set(keys)), []);
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
  /** The selected items, in the listing's order. */
  const selected = (): DriveItem[] => (items ? items.filter((entry) => selection.has(entry.key)) : []);

  return {
    selection,
    activeKey,
    setActiveKey,
    anchorKey,
    toggle,
    selectOnly,
    selectRange,
    selectKeys,
    clear,
    deselect,
    selectedItems,
    selected,
  };
}

export type ItemSelection = ReturnType<typeof useItemSelection>;
