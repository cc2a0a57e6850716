import type { PlanId } from '@cloudvault/contract/plans';
import { PASSWORD_MIN_LENGTH } from '@cloudvault/contract/validation';

// The contract's DEFAULT_LINK_HOURS and MAX_LINK_HOURS, copied: importing values from
// contract/shares would pull the schema library into the web bundle.
const FREE_MAX_HOURS = 24;
const PAID_MAX_HOURS = 720;

/** What the share dialogs offer for a link on the user's plan. */
export interface LinkOptions {
  /** An optional password and a choice of lifetime in the dialogs. */
  extras: boolean;
  /** The longest lifetime the plan allows, in hours. */
  maxHours: number;
}

/**
 * The API does not publish plan capabilities; docs/product.md#plans gives password links
 * and 30-day links to the paid plans only, so everything but Free offers them. The server
 * keeps the last word: an option the plan lacks comes back as a 400 with its reason.
 */
export function linkOptionsFor(plan: PlanId | undefined): LinkOptions {
  return plan === undefined || plan === 'FREE' ? { extras: false, maxHours: FREE_MAX_HOURS } : { extras: true, maxHours: PAID_MAX_HOURS };
}

/** Lifetimes the dialogs offer, in hours: an hour, a day, three days, a week, 30 days. */
const LIFETIMES = [1, 24, 72, 168, 720];

/** The lifetimes within the plan's limit: every link ends, file or folder. */
export function expiryChoices(maxHours: number): number[] {
  return LIFETIMES.filter((value) => value <= maxHours);
}

/** A lifetime as its largest whole unit: 72 hours is 3 days, 36 hours stays 36 hours. */
export function lifetimeUnit(hours: number): { unit: 'hours' | 'days'; count: number } {
  return hours % 24 === 0 ? { unit: 'days', count: hours / 24 } : { unit: 'hours', count: hours };
}

/** A link password is optional, but one that is given must be as long as an account's (the server says the same). */
export function linkPasswordTooShort(password: string): boolean {
  return password !== '' && password.length < PASSWORD_MIN_LENGTH;
}
