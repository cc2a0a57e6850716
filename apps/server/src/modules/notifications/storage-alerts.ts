/** docs/product.md#notifications: storage alerts when usage passes 80 % and 90 % of the plan. */
export const STORAGE_ALERT_PERCENTS = [90, 80] as const;

/** The highest threshold this change of usage crossed upwards, or null. */
export function storageAlertCrossed(usage: { before: number; after: number; limit: number }): number | null {
  if (usage.limit <= 0) return null;
  for (const percent of STORAGE_ALERT_PERCENTS) {
    const threshold = (usage.limit * percent) / 100;
    if (usage.before < threshold && usage.after >= threshold) return percent;
  }
  return null;
}
