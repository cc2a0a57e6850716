import { LoginPage } from '../../features/auth/components/login-page';
import type { PasskeySlot } from '../../features/auth/passkey-slot';
import { PasskeySignInButton } from '../../features/passkeys/components/passkey-sign-in-button';
import { usePasskeyAutofill } from '../../features/passkeys/hooks/use-passkey-autofill';
import { passkeySecondFactor } from '../../features/passkeys/sign-in';
import { SingleSignOnOptions } from '../../features/single-sign-on/components/single-sign-on-options';

const passkeys: PasskeySlot = { SignInButton: PasskeySignInButton, useAutofill: usePasskeyAutofill, secondFactor: passkeySecondFactor };

/** /login: the sign-in form, with passkeys and single sign-on from their features. */
export function LoginRoute() {
  return <LoginPage passkeys={passkeys} singleSignOn={<SingleSignOnOptions mode="signIn" />} />;
}
