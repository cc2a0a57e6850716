import type { PlanId } from '@cloudvault/contract/plans';

/**
 * Whether a plan includes advanced analytics. The public catalogue does not list
 * capabilities, so the web decides by plan id (docs/decisions/0011): Business ('PREMIUM').
 */
export function includesAnalytics(plan: PlanId): boolean {
  return plan === 'PREMIUM';
}
