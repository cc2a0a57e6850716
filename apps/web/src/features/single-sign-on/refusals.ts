import type { SingleSignOnRefusal } from '@cloudvault/contract/single-sign-on';

/** The text of each reason the server gives (`?sso=<reason>`) for refusing a sign-in at the provider. */
const REFUSALS = {
  expired: 'auth.singleSignOn.refused.expired',
  invalid: 'auth.singleSignOn.refused.invalid',
  denied: 'auth.singleSignOn.refused.denied',
  'unverified-email': 'auth.singleSignOn.refused.unverifiedEmail',
  'no-email': 'auth.singleSignOn.refused.noEmail',
  suspended: 'auth.singleSignOn.refused.suspended',
  'other-account': 'auth.singleSignOn.refused.otherAccount',
  unavailable: 'auth.singleSignOn.refused.unavailable',
} as const satisfies Record<SingleSignOnRefusal, string>;

/** The message key of a refusal named in the address; an unknown word reads as the provider being unavailable. */
export function refusalMessage(reason: string): (typeof REFUSALS)[SingleSignOnRefusal] {
  return Object.hasOwn(REFUSALS, reason) ? REFUSALS[reason as SingleSignOnRefusal] : REFUSALS.unavailable;
}
