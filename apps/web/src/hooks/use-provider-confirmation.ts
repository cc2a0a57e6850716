import { useSignInMethods } from '../lib/sign-in-methods';
import { useSession } from './use-session';

/**
 * For an account made through single sign-on, which has no password: the provider whose
 * sign-in confirms an action instead of the password (docs/api.md#single-sign-on).
 * Null for everyone else, who type their password.
 */
export function useProviderConfirmation(): { label: string } | null {
  const { user } = useSession();
  const { data: methods } = useSignInMethods();
  if (!user || user.hasPassword || !methods?.singleSignOn) return null;
  return methods.singleSignOn;
}
