import type { PasskeyAssertion } from '@cloudvault/contract/passkeys';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { serverErrorMessage } from '../../lib/api-client';
import i18n from '../../lib/i18n';
import { passkeyAssertion } from './api/passkeys';
import { passkeyFailure, reachedByName } from './passkey-failure';

/** Why a passkey did not sign the user in, in their language: the server's reason when it refused. */
export function signInFailureMessage(error: unknown): string {
  const failure = passkeyFailure(error);
  if (failure === 'server') return serverErrorMessage(error) ?? i18n.t('auth.passkey.failed');
  if (failure === 'cancelled') return i18n.t('auth.passkey.cancelled');
  if (failure === 'unsupported') return i18n.t('auth.passkey.unsupported');
  if (failure === 'wrongAddress') return i18n.t('auth.passkey.wrongAddress');
  return i18n.t('auth.passkey.failed');
}

/**
 * The second step of a password sign-in with two-factor on: one of the account's passkeys
 * in place of the code (the server checks it is this account's), or why there is none.
 */
export async function passkeySecondFactor(): Promise<{ assertion: PasskeyAssertion } | { failure: string }> {
  if (!browserSupportsWebAuthn()) return { failure: i18n.t('auth.passkey.unsupported') };
  if (!reachedByName(window.location.hostname)) return { failure: i18n.t('auth.passkey.wrongAddress') };
  try {
    return { assertion: await passkeyAssertion() };
  } catch (error) {
    return { failure: signInFailureMessage(error) };
  }
}
