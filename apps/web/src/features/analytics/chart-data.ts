import type { AnalyticsResponse } from '@cloudvault/contract/analytics';

type ShareDownloads = AnalyticsResponse['shareDownloads'];

/** Colours of chart series: mid tones that keep their contrast on the light and the dark surface. */
export const SERIES_COLORS = ['#4f6bff', '#14b8a6', '#f59e0b', '#ec4899', '#8b5cf6', '#22c55e', '#f97316', '#06b6d4'] as const;

export const seriesColor = (index: number): string => SERIES_COLORS[index % SERIES_COLORS.length] as string;

/** At most this many shares get their own line; more would be unreadable. */
export const MAX_SHARE_LINES = 5;

/** One row per day with a count per share, as a line chart wants it. */
export interface DownloadRow {
  day: string;
  [shareId: string]: number | string;
}

/**
 * Pivots per-share daily counts into rows by day (oldest first) for the top shares. A share
 * without downloads on a day counts 0 there, so its line drops instead of skipping the day.
 */
export function downloadRows(shares: ShareDownloads, limit = MAX_SHARE_LINES): DownloadRow[] {
  const top = shares.slice(0, limit);
  const days = [...new Set(top.flatMap((share) => share.days.map(({ day }) => day)))].sort();
  return days.map((day) => {
    const row: DownloadRow = { day };
    for (const share of top) row[share.shareId] = share.days.find((entry) => entry.day === day)?.count ?? 0;
    return row;
  });
}

/** Each category's part of the space, in whole percents that add up to 100 (largest remainders). */
export function categoryShares(
  categories: AnalyticsResponse['byCategory'],
): Array<AnalyticsResponse['byCategory'][number] & { percent: number }> {
  const total = categories.reduce((sum, category) => sum + category.bytes, 0);
  if (total === 0) return categories.map((category) => ({ ...category, percent: 0 }));
  const exact = categories.map((category) => (category.bytes / total) * 100);
  const percents = exact.map(Math.floor);
  let missing = 100 - percents.reduce((sum, percent) => sum + percent, 0);
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder);
  for (const { index } of byRemainder) {
    if (missing <= 0) break;
    percents[index] = (percents[index] ?? 0) + 1;
    missing -= 1;
  }
  return categories.map((category, index) => ({ ...category, percent: percents[index] ?? 0 }));
}
