import type { HistoryEntry } from '@cloudvault/contract/subscriptions';

/** docs/product.md#subscription: a plan card lists its first 6 features, the upgrade modal 5. */
export const PLAN_CARD_FEATURES = 6;
export const UPGRADE_MODAL_FEATURES = 5;
/** docs/product.md#subscription: Recent Changes shows 5 entries. */
export const RECENT_CHANGES = 5;

/** The features a list shows (the first `limit` unless expanded) and how many it leaves out. */
export function shownFeatures(features: readonly string[], limit: number, expanded = false): { shown: readonly string[]; hidden: number } {
  if (expanded || features.length <= limit) return { shown: features, hidden: 0 };
  return { shown: features.slice(0, limit), hidden: features.length - limit };
}

/** The newest history entries (the API lists newest first). */
export function recentChanges(history: readonly HistoryEntry[]): readonly HistoryEntry[] {
  return history.slice(0, RECENT_CHANGES);
}
