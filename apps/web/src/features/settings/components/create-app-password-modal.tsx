import { APP_PASSWORDS_PER_USER } from '@cloudvault/contract/app-password-limits';
import type { CreatedAppPasswordResponse } from '@cloudvault/contract/app-passwords';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { Modal } from '../../../components/ui/modal';
import { PasswordField } from '../../../components/ui/password-field';
import { ProviderConfirmation } from '../../../components/ui/provider-confirmation';
import { useProviderConfirmation } from '../../../hooks/use-provider-confirmation';
import { ApiError, serverErrorMessage } from '../../../lib/api-client';
import { useCreateAppPassword } from '../api/app-passwords';
import { isPasswordProblem } from '../reauth-errors';
import { CodeField } from './code-field';

interface CreateAppPasswordModalProps {
  /** The name the user gave; null while closed. */
  name: string | null;
  twoFactorEnabled: boolean;
  onClose: () => void;
  onCreated: (created: CreatedAppPasswordResponse) => void;
}

/**
 * An app password lets a device in until it is revoked, so making one asks again for what
 * signing in asks: the account password, and a code while two-factor sign-in is on
 * (docs/decisions/0037-app-password-policy.md).
 */
export function CreateAppPasswordModal({ name, twoFactorEnabled, onClose, onCreated }: CreateAppPasswordModalProps) {
  const { t } = useTranslation();
  const create = useCreateAppPassword();
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | undefined>();
  const passwordRef = useRef<HTMLInputElement>(null);
  // An account without a password confirms at the single sign-on provider instead.
  const provider = useProviderConfirmation();

  const close = () => {
    setPassword('');
    setCode('');
    setPasswordError(undefined);
    setCodeError(undefined);
    setFormError(undefined);
    onClose();
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending || name === null) return;
    const missingPassword = !password && !provider;
    const missingCode = twoFactorEnabled && !code.trim();
    if (missingPassword) setPasswordError(t('settings.reauth.passwordRequired'));
    if (missingCode) setCodeError(t('settings.twoFactor.codeRequired'));
    if (missingPassword || missingCode) return;
    try {
      const created = await create.mutateAsync({ name, password, ...(twoFactorEnabled ? { totpCode: code.trim() } : {}) });
      setPassword('');
      setCode('');
      onCreated(created);
    } catch (caught) {
      const message = serverErrorMessage(caught) ?? t('appPasswords.createFailed');
      if (isPasswordProblem(caught)) setPasswordError(message);
      else if (caught instanceof ApiError && (caught.code === 'INVALID_TWO_FACTOR_CODE' || caught.code === 'TWO_FACTOR_REQUIRED'))
        setCodeError(message);
      else if (caught instanceof ApiError && caught.code === 'APP_PASSWORD_LIMIT')
        setFormError(t('appPasswords.limitReached', { max: APP_PASSWORDS_PER_USER }));
      else setFormError(message);
    }
  };

  return (
    <Modal
      open={name !== null}
      onClose={close}
      busy={create.isPending}
      initialFocusRef={passwordRef}
      title={t('appPasswords.confirm.title', { name: name ?? '' })}
      description={twoFactorEnabled ? t('appPasswords.confirm.descriptionWithCode') : t('appPasswords.confirm.description')}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={create.isPending}>
            {t('ui.cancel')}
          </Button>
          <Button type="submit" form="create-app-password" loading={create.isPending}>
            {t('appPasswords.confirm.submit')}
          </Button>
        </>
      }
    >
      <form id="create-app-password" noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
        {formError && <FormAlert>{formError}</FormAlert>}
        {provider ? (
          <ProviderConfirmation label={provider.label} error={passwordError} />
        ) : (
          <PasswordField
            ref={passwordRef}
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
        {twoFactorEnabled && (
          <CodeField
            allowRecovery
            value={code}
            onChange={(value) => {
              setCode(value);
              setCodeError(undefined);
            }}
            error={codeError}
          />
        )}
        <p className="text-sm text-ink-muted">{t('appPasswords.confirm.mailNote')}</p>
      </form>
    </Modal>
  );
}
