/**
 * The keys a Shift-click selects: from the anchor (the item last clicked without Shift) to
 * the clicked one, both included, in the order the listing shows them, whichever way the
 * range runs. Without an anchor still shown (none yet, or filtered out), only the clicked one.
 */
export function rangeKeys(order: readonly string[], anchor: string | null, target: string): string[] {
  const to = order.indexOf(target);
  if (to < 0) return [];
  const from = anchor === null ? -1 : order.indexOf(anchor);
  if (from < 0) return [target];
  return order.slice(Math.min(from, to), Math.max(from, to) + 1);
}
