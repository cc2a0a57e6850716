import { badRequest } from '../../lib/errors.ts';
import type { PlanEntry } from '../plans/plans.catalogue.ts';

/** What the owner asks of a new link; absent fields take the defaults of the kind of link. */
export interface LinkRequest {
  expiresIn?: number;
  password?: string;
}

/**
 * Checks a link against the owner's plan before anything is stored: a lifetime beyond the
 * plan's longest, or a password on a plan without protected links, is 400. Answers the
 * plan's longest lifetime in hours, the default of a folder link.
 */
export function checkLinkAgainstPlan(plan: PlanEntry, request: LinkRequest): number {
  const maxHours = plan.capabilities.maxShareExpiryHours;
  if (request.expiresIn !== undefined && request.expiresIn > maxHours) {
    throw badRequest(`Links on the ${plan.name} plan last at most ${maxHours} hours.`, 'EXPIRY_TOO_LONG');
  }
  if (request.password !== undefined && !plan.capabilities.passwordProtectedLinks) {
    throw badRequest(`Password-protected links are not part of the ${plan.name} plan.`, 'PASSWORD_LINKS_NOT_IN_PLAN');
  }
  return maxHours;
}
