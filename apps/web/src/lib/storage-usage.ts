/**
 * How full a storage quota is, as every storage bar shows it (docs/product.md#dashboard): the
 * dashboard's storage card and the subscription page's Usage tab must look the same.
 */
export type StorageTone = 'normal' | 'warning' | 'critical';

/** The share of the quota in use, in percent, clamped to 0..100 (docs/product.md#dashboard). */
export function usagePercent(used: number, limit: number): number {
  if (!Number.isFinite(used) || used <= 0) return 0;
  if (!Number.isFinite(limit) || limit <= 0) return 100;
  return Math.min(100, Math.max(0, (used / limit) * 100));
}

/** Under 75 % blue, from 75 % yellow, from 90 % red. */
export function storageTone(percent: number): StorageTone {
  if (percent >= 90) return 'critical';
  if (percent >= 75) return 'warning';
  return 'normal';
}

/** The bar's fill colour for each tone. */
export const storageBarClass: Record<StorageTone, string> = {
  normal: 'bg-blue-500',
  warning: 'bg-yellow-400',
  critical: 'bg-red-500',
};

/** Shown in the bar's label: whole percent, but never "0 %" for a quota with something in it. */
export function displayPercent(percent: number): number {
  if (percent > 0 && percent < 1) return 1;
  return Math.floor(percent);
}
