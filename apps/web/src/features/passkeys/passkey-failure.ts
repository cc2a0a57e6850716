import { ApiError } from '../../lib/api-client';

/**
 * Why a passkey prompt ended without an answer, as the user should hear it:
 * - `cancelled`: they closed the prompt, it timed out, or another prompt replaced it (silent for autofill);
 * - `unsupported`: this browser has no WebAuthn;
 * - `alreadyRegistered`: this authenticator holds one of the account's passkeys already;
 * - `wrongAddress`: the page was opened by IP address, which cannot be a passkey's domain;
 * - `server`: the server refused the answer (its message says why);
 * - `failed`: anything else.
 */
export type PasskeyFailure = 'cancelled' | 'unsupported' | 'alreadyRegistered' | 'wrongAddress' | 'server' | 'failed';

/**
 * Whether this page can make or use passkeys for its site: a passkey belongs to a domain,
 * and browsers refuse an IP address as one (decision 0063).
 */
export function reachedByName(hostname: string): boolean {
  return !/^\d+(\.\d+){3}$/.test(hostname) && !hostname.startsWith('[');
}

export function passkeyFailure(error: unknown): PasskeyFailure {
  if (error instanceof ApiError) return 'server';
  if (!(error instanceof Error)) return 'failed';
  const code = (error as { code?: unknown }).code;
  // The browser says NotAllowedError both for a cancel and a timeout, on purpose: a page may not tell them apart.
  if (error.name === 'NotAllowedError' || error.name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') return 'cancelled';
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'alreadyRegistered';
  if (code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID') return 'wrongAddress';
  if (/not supported/i.test(error.message)) return 'unsupported';
  return 'failed';
}
