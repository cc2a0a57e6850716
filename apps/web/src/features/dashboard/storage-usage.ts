import type { PlanId } from '@cloudvault/contract/plans';

/** The Free storage warning: Free plan (or none known) at 80 % or more. */
export function showFreeStorageWarning(plan: PlanId | null | undefined, percent: number): boolean {
  return (plan ?? 'FREE') === 'FREE' && percent >= 80;
}
