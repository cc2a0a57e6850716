import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { PasswordField } from '../../../components/ui/password-field';
import { ProviderConfirmation } from '../../../components/ui/provider-confirmation';
import { useProviderConfirmation } from '../../../hooks/use-provider-confirmation';
import { serverErrorMessage } from '../../../lib/api-client';
import { useDisableTwoFactor } from '../api/two-factor';
import { isPasswordProblem } from '../reauth-errors';
import { CodeField } from './code-field';
import { notify } from '../../../lib/notify';

/** Turning two-factor sign-in off takes the account's password and a current code or a recovery code. */
export function DisableTwoFactorModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const disable = useDisableTwoFactor();
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  // An account without a password confirms at the single sign-on provider instead.
  const provider = useProviderConfirmation();
  const missingPassword = !password && !provider;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (disable.isPending) return;
    if (missingPassword || !code.trim()) {
      if (missingPassword) setPasswordError(t('settings.reauth.passwordRequired'));
      if (!code.trim()) setError(t('settings.twoFactor.codeRequired'));
      return;
    }
    try {
      await disable.mutateAsync({ code: code.trim(), password });
      notify.success('settings.twoFactor.disabled');
      onClose();
    } catch (caught) {
      const message = serverErrorMessage(caught) ?? t('settings.twoFactor.disableFailed');
      if (isPasswordProblem(caught)) setPasswordError(message);
      else setError(message);
    }
  };

  return (
    <Modal
      open
      onClose={onClose}
      busy={disable.isPending}
      title={t('settings.twoFactor.disableTitle')}
      description={t('settings.twoFactor.disableDescription')}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={disable.isPending}>
            {t('ui.cancel')}
          </Button>
          <Button type="submit" form="disable-two-factor" variant="danger" loading={disable.isPending}>
            {t('settings.twoFactor.disableSubmit')}
          </Button>
        </>
      }
    >
      <form id="disable-two-factor" noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        {provider ? (
          <ProviderConfirmation label={provider.label} error={passwordError} />
        ) : (
          <PasswordField
            label={t('settings.reauth.password')}
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              setPasswordError(undefined);
            }}
            error={passwordError}
          />
        )}
        <CodeField
          allowRecovery
          value={code}
          onChange={(value) => {
            setCode(value);
            setError(undefined);
          }}
          error={error}
        />
      </form>
    </Modal>
  );
}
