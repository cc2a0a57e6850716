import { ApiError } from '../../lib/api-client';

/**
 * Why a passkey prompt ended without an answer, as the user should hear it:
 * - `cancelled`: they closed the prompt, it timed out, or another prompt replaced it (silent for autofill);
 * - `unsupported`: this browser has no WebAuthn;
 * - `alreadyRegistered`: this authenticator holds one of the account's passkeys already;
 * - `server`: the server refused the answer (its message says why);
 * - `failed`: anything else.
 */
export type PasskeyFailure = 'cancelled' | 'unsupported' | 'alreadyRegistered' | 'server' | 'failed';

export function passkeyFailure(error: unknown): PasskeyFailure {
  if (error instanceof ApiError) return 'server';
  if (!(error instanceof Error)) return 'failed';
  const code = (error as { code?: unknown }).code;
  // The browser says NotAllowedError both for a cancel and a timeout, on purpose: a page may not tell them apart.
  if (error.name === 'NotAllowedError' || error.name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') return 'cancelled';
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'alreadyRegistered';
  if (/not supported/i.test(error.message)) return 'unsupported';
  return 'failed';
}
