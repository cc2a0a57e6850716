import type { PlanId } from '@cloudvault/contract/plans';
import type { BillingStatus, Subscription } from '@cloudvault/contract/subscriptions';

/** The status shown for a subscription (docs/product.md#subscription); no subscription reads as Free. */
export type StatusLabel = 'active' | 'pastDue' | 'canceled' | 'free';

export function statusLabel(subscription: Pick<Subscription, 'status'> | null | undefined): StatusLabel {
  switch (subscription?.status) {
    case 'active':
      return 'active';
    // A payment is owed: a renewal being retried, or one never made (these grant no plan).
    case 'past_due':
    case 'incomplete':
    case 'unpaid':
      return 'pastDue';
    case 'canceled':
      return 'canceled';
    default:
      return 'free';
  }
}

type CancelState = Pick<Subscription, 'status' | 'cancelAtPeriodEnd'> | null | undefined;

/** Whether the subscription gives its plan (as the server's grantsPlan): active, or a renewal being retried. */
function grantsPlan(subscription: Pick<Subscription, 'status'>): boolean {
  return subscription.status === 'active' || subscription.status === 'past_due';
}

/** Cancel is offered only for a subscription that gives its plan and is not already ending. */
export function canCancel(subscription: CancelState): boolean {
  return !!subscription && grantsPlan(subscription) && !subscription.cancelAtPeriodEnd;
}

/** The Overview's Upgrade Plan button: no subscription, or one that gives no plan (canceled, never paid). */
export function canUpgradeFromOverview(subscription: Pick<Subscription, 'status'> | null | undefined): boolean {
  return !subscription || !grantsPlan(subscription);
}

/**
 * A plan granted free of charge by an operator that still runs: it ends at its date without
 * being billed, so it has its own notice and none of the paid subscription's actions.
 */
export function isComplimentary(subscription: Pick<Subscription, 'status' | 'complimentary'> | null | undefined): boolean {
  return !!subscription && subscription.complimentary === true && subscription.status !== 'canceled';
}

/**
 * The notice of a subscription ending with its period (with the way to keep it), which only
 * a paid one still running has; a complimentary plan also ends at its date but cannot be kept.
 */
export function endsWithPeriod(
  subscription: Pick<Subscription, 'status' | 'cancelAtPeriodEnd' | 'complimentary'> | null | undefined,
): boolean {
  return !!subscription && subscription.cancelAtPeriodEnd && subscription.status !== 'canceled' && !isComplimentary(subscription);
}

/**
 * Whether choosing `planId` changes a paid subscription at once, prorated (docs/api.md#subscriptions):
 * such a change is previewed and confirmed first. Free → paid goes to the checkout, paid → Free
 * is a cancellation at the period's end, and a complimentary plan cannot be changed.
 */
export function changesAtOnce(
  current: { plan: PlanId; subscription: Pick<Subscription, 'status' | 'complimentary'> | null } | undefined,
  planId: PlanId,
): boolean {
  const subscription = current?.subscription;
  return !!subscription && grantsPlan(subscription) && !isComplimentary(subscription) && planId !== 'FREE' && planId !== current.plan;
}

/** A billing history item's colour: paid green, pending yellow, anything else red. */
export type BillingTone = 'success' | 'warning' | 'danger';

export function billingTone(status: BillingStatus | string): BillingTone {
  if (status === 'paid') return 'success';
  if (status === 'pending') return 'warning';
  return 'danger';
}
