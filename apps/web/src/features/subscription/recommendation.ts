import type { Plan, PlanId } from '@cloudvault/contract/plans';

/** Usage (percent) from which an upgrade is recommended; Free users hear it earlier. */
const RECOMMEND_AT_PERCENT = 80;
const RECOMMEND_ON_FREE_AT_PERCENT = 50;
/** From here the recommendation's title is 'Storage Almost Full!'. */
const ALMOST_FULL_AT_PERCENT = 90;

export interface Recommendation {
  level: 'almostFull' | 'recommended';
  /** The next plan with more storage; null when there is none (the largest plan already). */
  plan: Plan | null;
}

/**
 * The recommendation block (docs/product.md#subscription): shown at 80 % usage or more, or at 50 %
 * or more on Free; it offers the plan with the smallest storage limit above the current one.
 */
export function recommendation(
  usage: { percent: number; planId: PlanId; storageLimit: number },
  plans: readonly Plan[],
): Recommendation | null {
  const threshold = usage.planId === 'FREE' ? RECOMMEND_ON_FREE_AT_PERCENT : RECOMMEND_AT_PERCENT;
  if (usage.percent < threshold) return null;
  const larger = plans.filter((plan) => plan.storageLimit > usage.storageLimit);
  const next = larger.reduce<Plan | null>((best, plan) => (!best || plan.storageLimit < best.storageLimit ? plan : best), null);
  return { level: usage.percent >= ALMOST_FULL_AT_PERCENT ? 'almostFull' : 'recommended', plan: next };
}
