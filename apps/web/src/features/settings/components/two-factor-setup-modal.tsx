import { TriangleAlert } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { PasswordField } from '../../../components/ui/password-field';
import { Spinner } from '../../../components/ui/spinner';
import { serverErrorMessage } from '../../../lib/api-client';
import { useAppPasswords } from '../api/app-passwords';
import { useDisableTwoFactor, useEnableTwoFactor, useSetupTwoFactor } from '../api/two-factor';
import { isPasswordProblem } from '../reauth-errors';
import { CodeField } from './code-field';
import { RecoveryCodes } from './recovery-codes';
import { notify } from '../../../lib/notify';

type Step = 'verify' | 'scan' | 'codes';

/**
 * Configure two-factor sign-in: scan the QR code (or type the secret) into an
 * authenticator app, confirm with the code it shows, then keep the ten recovery codes,
 * which are shown only this once. `reconfigure` (it is on already) first asks for a
 * current code, because a new secret replaces the old one.
 */
export function TwoFactorSetupModal({ reconfigure, onClose }: { reconfigure: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const setup = useSetupTwoFactor();
  const enable = useEnableTwoFactor();
  // App passwords stay on with two-factor (decision 0037): the last step says so when there are any.
  const appPasswords = useAppPasswords();
  const disable = useDisableTwoFactor();
  const [step, setStep] = useState<Step>(reconfigure ? 'verify' : 'scan');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  // Reconfiguring turns the old one off first, which takes the account's password too.
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const started = useRef(false);
  const { mutate: startSetup } = setup;

  // A new secret once per opening (the ref survives React's development double effects).
  useEffect(() => {
    if (step !== 'scan' || started.current) return;
    started.current = true;
    startSetup();
  }, [step, startSetup]);

  const busy = setup.isPending || enable.isPending || disable.isPending;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const entered = code.trim();
    if (step === 'verify' && !password) setPasswordError(t('settings.reauth.passwordRequired'));
    if (!entered) setError(t('settings.twoFactor.codeRequired'));
    if (!entered || (step === 'verify' && !password)) return;
    try {
      if (step === 'verify') {
        await disable.mutateAsync({ code: entered, password });
        setCode('');
        setPassword('');
        setStep('scan');
      } else {
        await enable.mutateAsync(entered);
        notify.success('settings.twoFactor.enabled');
        setStep('codes');
      }
    } catch (caught) {
      const message = serverErrorMessage(caught) ?? t('settings.twoFactor.enableFailed');
      if (step === 'verify' && isPasswordProblem(caught)) setPasswordError(message);
      else setError(message);
    }
  };

  if (step === 'codes' && enable.data) {
    return (
      <Modal
        open
        onClose={onClose}
        title={t('settings.twoFactor.codesTitle')}
        description={t('settings.twoFactor.codesDescription')}
        footer={<Button onClick={onClose}>{t('settings.twoFactor.done')}</Button>}
      >
        <RecoveryCodes codes={enable.data.recoveryCodes} />
        {(appPasswords.data?.length ?? 0) > 0 && <p className="mt-4 text-sm text-ink-muted">{t('settings.twoFactor.appPasswordsKept')}</p>}
      </Modal>
    );
  }

  const codeForm = (
    <form id="two-factor-setup" noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      {step === 'verify' && (
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
        allowRecovery={step === 'verify'}
        value={code}
        onChange={(value) => {
          setCode(value);
          setError(undefined);
        }}
        error={error}
      />
    </form>
  );

  let body;
  if (step === 'verify') {
    body = codeForm;
  } else if (setup.data) {
    body = (
      <div className="flex flex-col gap-5">
        <ol className="flex flex-col gap-4 text-sm text-ink">
          <li>
            <p className="font-medium">{t('settings.twoFactor.scanStep')}</p>
            <div className="mt-3 flex flex-col items-center gap-3 sm:flex-row sm:items-start">
              {/* White behind the code in both themes: authenticator cameras want dark on light. */}
              <img
                src={setup.data.qrCodeDataUrl}
                alt={t('settings.twoFactor.qrAlt')}
                width={176}
                height={176}
                className="size-44 shrink-0 rounded-control border border-line bg-white p-2"
              />
              <div className="min-w-0 text-center sm:text-left">
                <p className="text-ink-muted">{t('settings.twoFactor.secretLabel')}</p>
                <code className="mt-1 block rounded-control bg-surface-muted px-3 py-2 font-mono text-sm break-all text-ink select-all">
                  {setup.data.secret}
                </code>
              </div>
            </div>
          </li>
          <li>
            <p className="mb-3 font-medium">{t('settings.twoFactor.confirmStep')}</p>
            {codeForm}
          </li>
        </ol>
      </div>
    );
  } else if (setup.isError) {
    body = (
      <div role="alert" className="flex flex-col items-center gap-3 py-4 text-center text-sm text-ink">
        <TriangleAlert aria-hidden="true" className="size-6 text-danger" />
        <p>{serverErrorMessage(setup.error) ?? t('settings.twoFactor.setupFailed')}</p>
        <Button variant="secondary" size="sm" onClick={() => startSetup()}>
          {t('settings.twoFactor.retry')}
        </Button>
      </div>
    );
  } else {
    body = (
      <div className="flex justify-center py-8">
        <Spinner label={t('ui.loading')} className="size-7 text-brand-600 dark:text-brand-400" />
      </div>
    );
  }

  return (
    <Modal
      open
      onClose={onClose}
      busy={busy}
      size="lg"
      title={t('settings.twoFactor.setupTitle')}
      description={step === 'verify' ? t('settings.twoFactor.reconfigureDescription') : t('settings.twoFactor.setupDescription')}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t('ui.cancel')}
          </Button>
          <Button
            type="submit"
            form="two-factor-setup"
            loading={enable.isPending || disable.isPending}
            disabled={step === 'scan' && !setup.data}
          >
            {step === 'verify' ? t('settings.twoFactor.continue') : t('settings.twoFactor.enableSubmit')}
          </Button>
        </>
      }
    >
      {body}
    </Modal>
  );
}
