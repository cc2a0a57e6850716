import type { UploadConfig } from '@cloudvault/contract/files';
import type { PlanId } from '@cloudvault/contract/plans';

/**
 * Uploads at once per plan: the plan catalogue's maxConcurrentUploads (null = unlimited).
 * The one place the web app knows it until the API publishes the catalogue
 * (GET /subscriptions/plans, issue 5): then read it from there. The server enforces it
 * regardless (429).
 */
export const MAX_CONCURRENT_UPLOADS_BY_PLAN: Record<PlanId, number | null> = {
  FREE: 3,
  PRO: 10,
  PREMIUM: null,
};

/**
 * A browser opens at most 6 HTTP/1.1 connections per host; uploads beyond 4 would stall
 * in the browser's own queue and starve the listings and downloads of the page.
 */
export const BROWSER_UPLOAD_CONNECTIONS = 4;

/** How many of the queue's uploads run at once for the plan. */
export function uploadConcurrency(plan: PlanId): number {
  const limit = MAX_CONCURRENT_UPLOADS_BY_PLAN[plan] ?? Number.POSITIVE_INFINITY;
  return Math.max(1, Math.min(limit, BROWSER_UPLOAD_CONNECTIONS));
}

/** product.md section 5: used when the upload settings cannot be loaded. */
export const FALLBACK_UPLOAD_CONFIG: UploadConfig = {
  userMaxFileSize: 107374182,
  userMaxFileSizeFormatted: '102.4 MB',
  userPlan: 'FREE',
};
