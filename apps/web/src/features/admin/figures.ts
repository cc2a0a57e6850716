import type { AdminStatsResponse } from '@cloudvault/contract/admin';

type RevenueMonth = AdminStatsResponse['revenueByMonth'][number];
type StorageDay = AdminStatsResponse['storageHistory'][number];

/** Dollars as the overview shows them: '$1,234.50', whole amounts without cents ('$120'). */
export function formatMoney(amount: number, language: string): string {
  return new Intl.NumberFormat(language, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(amount);
}

/** A whole count in the interface language ('12,345'). */
export function formatCount(count: number, language: string): string {
  return new Intl.NumberFormat(language).format(count);
}

export interface RevenueTrend {
  /** The last complete month compared (YYYY-MM). */
  month: string;
  net: number;
  previousNet: number;
  /** Relative change from the month before (0.25 = +25 %); null when that month earned nothing, so no ratio exists. */
  change: number | null;
}

/**
 * The revenue trend: the last complete month's net revenue against the month before. The
 * current month is still running, so comparing it would always look like a fall.
 * Null with fewer than three months of figures (`revenueByMonth` ends with the current month).
 */
export function revenueTrend(months: readonly RevenueMonth[]): RevenueTrend | null {
  const last = months.at(-2);
  const before = months.at(-3);
  if (!last || !before) return null;
  return {
    month: last.month,
    net: last.net,
    previousNet: before.net,
    change: before.net > 0 ? (last.net - before.net) / before.net : null,
  };
}

/** A change as a signed percentage ('+12.5%', '−3%', '0%'); one decimal at most. */
export function formatChange(change: number, language: string): string {
  return new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(change);
}

export type TrendDirection = 'up' | 'down' | 'flat';

export function trendDirection(change: number | null): TrendDirection {
  if (change === null || change === 0) return 'flat';
  return change > 0 ? 'up' : 'down';
}

/**
 * How much all accounts' storage grew over the snapshots (the newest less the oldest; negative
 * when files were deleted), and over how many days. Null with fewer than two snapshots.
 */
export function storageGrowth(history: readonly StorageDay[]): { bytes: number; days: number } | null {
  const first = history[0];
  const last = history.at(-1);
  if (!first || !last || first === last) return null;
  const days = Math.round((Date.parse(`${last.day}T00:00:00Z`) - Date.parse(`${first.day}T00:00:00Z`)) / 86_400_000);
  return { bytes: last.bytes - first.bytes, days };
}

/** 'YYYY-MM' as a short month and year in the interface language ('Mar 2026'). */
export function formatMonth(month: string, language: string): string {
  return new Date(`${month}-01T00:00:00Z`).toLocaleDateString(language, { month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** A moment in the interface language ('Mar 5, 2026, 2:07 PM'). */
export function formatDateTime(iso: string, language: string): string {
  return new Date(iso).toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' });
}
