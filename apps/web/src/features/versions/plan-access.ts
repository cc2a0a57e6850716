import type { PlanId } from '@cloudvault/contract/plans';

/**
 * Whether a plan keeps file versions. The public catalogue does not list capabilities, so
 * the web decides by plan id as docs/decisions/0011 describes: Business ('PREMIUM') only.
 */
export function includesVersioning(plan: PlanId): boolean {
  return plan === 'PREMIUM';
}
