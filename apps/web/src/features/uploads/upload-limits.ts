import type { Plan, PlanId } from '@cloudvault/contract/plans';

/**
 * A browser opens at most 6 HTTP/1.1 connections per host; uploads beyond 4 would stall
 * in the browser's own queue and starve the listings and downloads of the page.
 */
export const BROWSER_UPLOAD_CONNECTIONS = 4;

/** Until the plan catalogue is known, one upload at a time: no plan allows fewer. */
export const FALLBACK_UPLOAD_CONCURRENCY = 1;

/**
 * How many of the queue's uploads run at once: the plan's maxConcurrentUploads from the
 * catalogue (GET /subscriptions/plans; null = unlimited), within what a browser can carry
 * to one host. The server enforces the plan's limit regardless (429).
 */
export function uploadConcurrency(plans: readonly Pick<Plan, 'id' | 'maxConcurrentUploads'>[] | undefined, planId: PlanId): number {
  const plan = plans?.find((entry) => entry.id === planId);
  if (!plan) return FALLBACK_UPLOAD_CONCURRENCY;
  const limit = plan.maxConcurrentUploads ?? Number.POSITIVE_INFINITY;
  return Math.max(1, Math.min(limit, BROWSER_UPLOAD_CONNECTIONS));
}
