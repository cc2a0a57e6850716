import type { PasskeyAssertion } from '@cloudvault/contract/passkeys';
import type { ComponentType } from 'react';

/** What the passkeys feature lends the sign-in page; app/routes/login-route.tsx puts them together. */
export interface PasskeySlot {
  /** "Sign in with a passkey", under the form. */
  SignInButton: ComponentType;
  /** Offers the site's passkeys in the e-mail field's suggestions while the form is shown (conditional UI). */
  useAutofill(): void;
  /** One of the account's passkeys for the second step of a password sign-in, or why there is none, in the user's words. */
  secondFactor(): Promise<{ assertion: PasskeyAssertion } | { failure: string }>;
}
