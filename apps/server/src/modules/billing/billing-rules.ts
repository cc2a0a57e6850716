import type { HistoryType } from '@cloudvault/contract/subscriptions';

const DAY = 24 * 60 * 60 * 1000;
/** docs/product.md#billing-rules: "A cancellation within 30 days of the first paid invoice refunds that invoice once". */
export const REFUND_WINDOW_DAYS = 30;

/** The same day of the next month, or that month's last day (31 January → 28 or 29 February). */
export function addMonth(iso: string): string {
  const date = new Date(iso);
  const day = date.getUTCDate();
  const next = new Date(date);
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next.toISOString();
}

/**
 * What moving from one monthly price to another costs for the rest of the period, in
 * cents: the new plan's share of the remaining time minus the old plan's. Negative is a
 * credit (a downgrade). Nothing is left to prorate once the period is over.
 */
export function prorationCents(input: {
  fromPriceCents: number;
  toPriceCents: number;
  periodStart: string;
  periodEnd: string;
  now: string;
}): number {
  const start = Date.parse(input.periodStart);
  const end = Date.parse(input.periodEnd);
  const now = Date.parse(input.now);
  if (!(end > start) || now >= end) return 0;
  const remaining = (end - Math.max(now, start)) / (end - start);
  return Math.round((input.toPriceCents - input.fromPriceCents) * remaining);
}

/**
 * How long a plan change's preview may be confirmed (docs/decisions/0049): its proration date is
 * sent back with the change, and an older one would let a downgrade claim a credit for days
 * already used.
 */
export const PRORATION_QUOTE_LIFETIME_MS = 30 * 60 * 1000;

/** A proration moment in whole seconds: Stripe keeps no finer time, so the preview and the change agree. */
export function prorationMoment(now: Date): Date {
  return new Date(Math.floor(now.getTime() / 1000) * 1000);
}

/** Whole days left from `at` to the period's end, counted up (half a day left is "1 day"). */
export function daysLeft(at: string, periodEnd: string): number {
  return Math.max(0, Math.ceil((Date.parse(periodEnd) - Date.parse(at)) / DAY));
}

/**
 * Whether a preview's proration date may still be used for the change: not in the future, at
 * most PRORATION_QUOTE_LIFETIME_MS old, and inside the current period.
 */
export function prorationDateUsable(prorationDate: string, input: { now: string; periodStart: string; periodEnd: string }): boolean {
  const at = Date.parse(prorationDate);
  const now = Date.parse(input.now);
  return at <= now && now - at <= PRORATION_QUOTE_LIFETIME_MS && at >= Date.parse(input.periodStart) && at < Date.parse(input.periodEnd);
}

/** A cancellation within 30 days of the first payment gives that payment back. */
export function refundDue(firstPaidAt: string | null, now: string): boolean {
  if (firstPaidAt === null) return false;
  const elapsed = Date.parse(now) - Date.parse(firstPaidAt);
  return elapsed >= 0 && elapsed <= REFUND_WINDOW_DAYS * DAY;
}

/** How the history names a move between plans: by price, then by storage. */
export function planChangeType(from: { price: number; storageLimit: number }, to: { price: number; storageLimit: number }): HistoryType {
  if (to.price !== from.price) return to.price > from.price ? 'upgrade' : 'downgrade';
  return to.storageLimit >= from.storageLimit ? 'upgrade' : 'downgrade';
}

/** Dollars as cents, without floating-point drift (9.99 → 999). */
export function toCents(dollars: number): number {
  return Math.round(dollars * 100);
}

/**
 * The provider name of plans an operator grants free of charge (docs/decisions/0029-operator-console.md):
 * no payment provider knows them, no renewal bills them, and a job ends them at their date.
 */
export const COMPLIMENTARY = 'complimentary';

/**
 * A subscription gives its plan while it is active or a renewal is being retried;
 * otherwise (incomplete, unpaid, canceled) the user is on Free.
 */
export function grantsPlan(status: string): boolean {
  return status === 'active' || status === 'past_due';
}
