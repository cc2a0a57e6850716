import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { notify } from '../../../lib/notify';
import { passkeyAssertion, usePasskeySignIn } from '../api/passkeys';
import { reachedByName } from '../passkey-failure';
import { signInFailureMessage } from '../sign-in';

/**
 * "Sign in with a passkey": no e-mail typed. The browser lists the passkeys it has for this
 * site; the one picked names the account.
 */
export function PasskeySignInButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signIn = usePasskeySignIn();
  const [asking, setAsking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const onClick = async () => {
    setProblem(null);
    if (!browserSupportsWebAuthn()) return setProblem(t('auth.passkey.unsupported'));
    if (!reachedByName(window.location.hostname)) return setProblem(t('auth.passkey.wrongAddress'));
    setAsking(true);
    try {
      await signIn.mutateAsync(await passkeyAssertion());
      notify.success('auth.login.success');
      void navigate('/dashboard', { replace: true });
    } catch (error) {
      setProblem(signInFailureMessage(error));
    } finally {
      setAsking(false);
    }
  };

  return (
    <div className="mt-5 flex flex-col gap-3">
      {problem && <FormAlert>{problem}</FormAlert>}
      <Button variant="secondary" size="lg" fullWidth loading={asking} onClick={() => void onClick()}>
        <KeyRound aria-hidden="true" className="size-4" />
        {t('auth.passkey.signIn')}
      </Button>
    </div>
  );
}
