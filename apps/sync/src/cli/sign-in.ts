/**
 * Signing a device in: the client keeps an app password, never the account password. An app
 * password is checked with a device session; an account password signs in (a two-factor code
 * asked when the account needs one and someone can answer), makes an app password named
 * `cloudvault on DEVICE` (remote/api-client.ts), and that is kept.
 */
import { checkAppPassword, loginWithAccountPassword, type RetryPolicy } from '../remote/api-client.ts';
import { isRemoteError } from '../remote/remote-error.ts';

export interface SignInInput {
  server: string;
  email: string;
  password: string;
  device: string;
  /** Asks for a two-factor code; absent when nobody can answer (no terminal). */
  askCode?: () => Promise<string>;
}

export type SignInResult = { appPassword: string } | { error: string };

/** The shape of the server's app passwords (30 letters and digits, dashes and case aside): an account password rarely has it. */
const APP_PASSWORD_SHAPE = /^[abcdefghijkmnpqrstuvwxyz23456789]{30}$/;

/** Whether `password` could be an app password. */
export function looksLikeAppPassword(password: string): boolean {
  return APP_PASSWORD_SHAPE.test(password.replace(/[\s-]/g, '').toLowerCase());
}

/** A person is waiting at the command: a server that does not answer is reported at once, not retried for a minute. */
const NO_RETRY: RetryPolicy = { maxTotalMs: 0, initialDelayMs: 1, maxDelayMs: 1, sleep: async () => undefined };

function reason(error: unknown): string {
  if (isRemoteError(error)) return error.status === 0 ? error.message : `Sign-in refused: ${error.message}`;
  return `Sign-in failed: ${(error as Error).message}`;
}

/** Signs the device in and answers the app password to keep, or why not. */
export async function signIn(input: SignInInput): Promise<SignInResult> {
  if (looksLikeAppPassword(input.password)) {
    try {
      await checkAppPassword({ server: input.server, email: input.email, appPassword: input.password, device: input.device }, NO_RETRY);
      return { appPassword: input.password };
    } catch (error) {
      // Not an app password after all (or not this account's): the account password's way below says why.
      if (!isRemoteError(error) || error.status !== 401) return { error: reason(error) };
    }
  }
  try {
    const { appPassword } = await loginWithAccountPassword(input.server, input.email, input.password, input.device, input.askCode);
    return { appPassword };
  } catch (error) {
    if (isRemoteError(error, 'TWO_FACTOR_REQUIRED') && !input.askCode) {
      return {
        error:
          'This account signs in with a two-factor code: create an app password (Settings, App passwords) and give it as --password, or run cloudvault login on a terminal.',
      };
    }
    return { error: reason(error) };
  }
}
