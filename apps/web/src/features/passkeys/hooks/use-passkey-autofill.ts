import { browserSupportsWebAuthnAutofill, WebAuthnAbortService } from '@simplewebauthn/browser';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { notify } from '../../../lib/notify';
import { passkeyAssertion, usePasskeySignIn } from '../api/passkeys';
import { passkeyFailure, reachedByName } from '../passkey-failure';

/**
 * Conditional UI: while the sign-in page is open, the browser offers the site's passkeys
 * among the e-mail field's suggestions (the field's autocomplete ends in `webauthn`); picking
 * one signs in. Started on mount where the browser supports it and the page was opened by
 * name, aborted on unmount. It runs unasked, so only the server's refusal of a passkey the
 * user picked is shown; a cancel, or another prompt taking over, is silent.
 */
export function usePasskeyAutofill(): void {
  const navigate = useNavigate();
  const { mutateAsync: signIn } = usePasskeySignIn();
  useEffect(() => {
    let active = true;
    void (async () => {
      if (!reachedByName(window.location.hostname) || !(await browserSupportsWebAuthnAutofill()) || !active) return;
      try {
        await signIn(await passkeyAssertion({ autofill: true }));
        notify.success('auth.login.success');
        void navigate('/dashboard', { replace: true });
      } catch (error) {
        if (active && passkeyFailure(error) === 'server') notify.error('auth.passkey.failed', { error });
      }
    })();
    return () => {
      active = false;
      WebAuthnAbortService.cancelCeremony();
    };
  }, [navigate, signIn]);
}
