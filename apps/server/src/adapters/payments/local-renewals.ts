/**
 * The local provider's renewal rules (docs/decisions/0017-job-runner.md): which periods are
 * owed, what each renewal is called, and how long a run holds what it claimed. Ids come from
 * the subscription and the period, so two runs renewing the same period report the same
 * events, and billing applies an event id once: one invoice per period, however many run.
 */

/** A run holds the subscriptions it claimed this long; a node killed mid-run frees them when it ends. */
export const RENEWAL_CLAIM_MS = 10 * 60 * 1000;

/** Until when a run starting at `now` holds its claim. */
export function renewalClaimExpiry(now: string): string {
  return new Date(Date.parse(now) + RENEWAL_CLAIM_MS).toISOString();
}

/** The periods that began at or before `now` since the current one ended, oldest first: one invoice each. */
export function periodsOwed(
  currentPeriodEnd: string,
  now: string,
  addMonth: (iso: string) => string,
): Array<{ start: string; end: string }> {
  const periods: Array<{ start: string; end: string }> = [];
  for (let start = currentPeriodEnd; start <= now; start = addMonth(start)) periods.push({ start, end: addMonth(start) });
  return periods;
}

/** The subscription id's own part, without the `sub_local_` prefix. */
const ownPart = (providerSubscriptionId: string) => providerSubscriptionId.replace(/^sub_local_/, '');
/** A period's start as letters and digits only (ids travel in URLs). */
const compact = (iso: string) => iso.replace(/[^0-9A-Za-z]/g, '');

/** The renewal invoice of the period starting at `periodStart`: the same for every run. */
export function renewalInvoiceId(providerSubscriptionId: string, periodStart: string): string {
  return `in_local_${ownPart(providerSubscriptionId)}_${compact(periodStart)}`;
}

/** The event that ends a subscription canceled at period end: once per subscription. */
export function periodEndEventId(providerSubscriptionId: string): string {
  return `evt_local_end_${ownPart(providerSubscriptionId)}`;
}
