import type { BillingStatus, Subscription } from '@cloudvault/contract/subscriptions';

/** The status shown for a subscription (product.md section 4); no subscription reads as Free. */
export type StatusLabel = 'active' | 'pastDue' | 'canceled' | 'free';

export function statusLabel(subscription: Pick<Subscription, 'status'> | null | undefined): StatusLabel {
  switch (subscription?.status) {
    case 'active':
      return 'active';
    case 'past_due':
      return 'pastDue';
    case 'canceled':
      return 'canceled';
    default:
      return 'free';
  }
}

type CancelState = Pick<Subscription, 'status' | 'cancelAtPeriodEnd'> | null | undefined;

/** Cancel is offered only for a subscription that is neither canceled nor already ending. */
export function canCancel(subscription: CancelState): boolean {
  return !!subscription && subscription.status !== 'canceled' && !subscription.cancelAtPeriodEnd;
}

/** The Overview's Upgrade Plan button: no subscription, or a canceled one. */
export function canUpgradeFromOverview(subscription: Pick<Subscription, 'status'> | null | undefined): boolean {
  return !subscription || subscription.status === 'canceled';
}

/** A billing history item's colour: paid green, pending yellow, anything else red. */
export type BillingTone = 'success' | 'warning' | 'danger';

export function billingTone(status: BillingStatus | string): BillingTone {
  if (status === 'paid') return 'success';
  if (status === 'pending') return 'warning';
  return 'danger';
}
