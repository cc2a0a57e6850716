import { Type, type Static } from 'typebox';
import { Timestamp } from './common.ts';

/**
 * Single sign-on with the operator's OpenID provider (docs/api.md#single-sign-on,
 * docs/decisions/0064-single-sign-on.md).
 *   GET  /api/auth/methods         -> SignInMethods (public: what the sign-in pages offer)
 *   GET  /api/auth/oidc/start      ?next= -> 302 to the provider (a browser navigation)
 *   GET  /api/auth/oidc/callback   the provider's redirect -> 302 into the app
 *   POST /api/auth/oidc/session    HandoffBody -> AuthResponse (the one-time code after a sign-in)
 *   POST /api/auth/oidc/reauth     ReauthBody -> ReauthResponse (signed in: sign in at the provider again)
 *   GET  /api/auth/oidc/link       -> LinkResponse (signed in: the account's link, for Settings)
 */

/** How people sign in here; the pages show only what the server accepts. */
export const SignInMethods = Type.Object({
  /** `admins-only`: the password form is for operators (ADMIN_EMAILS); everyone else uses single sign-on. */
  passwordSignIn: Type.Union([Type.Literal('everyone'), Type.Literal('admins-only')]),
  /** The provider's button ("Sign in with <label>"), or null when single sign-on is not configured. */
  singleSignOn: Type.Union([Type.Object({ label: Type.String() }), Type.Null()]),
  /** Passkeys are always offered. */
  passkeys: Type.Boolean(),
});
export type SignInMethods = Static<typeof SignInMethods>;

/** The one-time code the callback put in the app's address (its fragment), exchanged once for a session. */
export const HandoffBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 128 }) });
export type HandoffBody = Static<typeof HandoffBody>;

/** Where in the app to come back to after signing in again at the provider: a path of this site. */
export const ReauthBody = Type.Object({ next: Type.String({ maxLength: 512 }) });
export type ReauthBody = Static<typeof ReauthBody>;

/** The provider's sign-in page the browser goes to. */
export const ReauthResponse = Type.Object({ location: Type.String() });
export type ReauthResponse = Static<typeof ReauthResponse>;

/** The account's identity at the provider, as Settings > Security shows it. */
export const SingleSignOnLink = Type.Object({
  /** The provider's name as the operator set it (OIDC_BUTTON_LABEL). */
  label: Type.String(),
  /** The address the provider gave at the last sign-in. */
  email: Type.String(),
  linkedAt: Timestamp,
});
export type SingleSignOnLink = Static<typeof SingleSignOnLink>;

export const LinkResponse = Type.Object({ link: Type.Union([SingleSignOnLink, Type.Null()]) });
export type LinkResponse = Static<typeof LinkResponse>;

/**
 * Why a sign-in at the provider was refused: the callback sends the browser to
 * /login?sso=<reason> (or back to the page that asked, for a re-authentication).
 */
export const SINGLE_SIGN_ON_REFUSALS = [
  /** The sign-in took too long, was used already, or began in another browser. */
  'expired',
  /** The provider's answer did not check out (state, signature, issuer, audience, expiry, nonce). */
  'invalid',
  /** The provider said no (the user cancelled, or is not allowed to use this application). */
  'denied',
  /** An account has this address, but the provider has not verified it: no link without proof. */
  'unverified-email',
  /** The provider gave no e-mail address. */
  'no-email',
  'suspended',
  /** A re-authentication signed in as someone else than the account's linked identity. */
  'other-account',
  /** The provider could not be reached. */
  'unavailable',
] as const;
export type SingleSignOnRefusal = (typeof SINGLE_SIGN_ON_REFUSALS)[number];
