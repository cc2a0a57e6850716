import type { Plan } from '@cloudvault/contract/plans';

/** How a plan card relates to the user's current plan (docs/product.md#subscription). */
export type PlanRelation = 'current' | 'upgrade' | 'downgrade' | 'unavailable';

type Comparable = Pick<Plan, 'id' | 'price' | 'storageLimit'>;

/**
 * Upgrade when the plan costs more or stores more than the current one (or there is no
 * current plan); downgrade when it costs less and stores less; anything else (cheaper but
 * bigger, or equal) cannot be chosen.
 */
export function planRelation(plan: Comparable, current: Comparable | null | undefined): PlanRelation {
  if (!current) return 'upgrade';
  if (plan.id === current.id) return 'current';
  if (plan.price > current.price || plan.storageLimit > current.storageLimit) return 'upgrade';
  if (plan.price < current.price && plan.storageLimit < current.storageLimit) return 'downgrade';
  return 'unavailable';
}
