import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PASSWORD_MIN_LENGTH } from '@cloudvault/contract/validation';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { PageTitle } from '../../../components/ui/page-title';
import { PasswordField } from '../../../components/ui/password-field';
import { ApiError, serverErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { endSession } from '../../../lib/session';
import { useResetPassword } from '../api/password-recovery';
import { AuthCard } from './auth-card';

interface FieldErrors {
  password?: string;
  confirmPassword?: string;
}

const linkClass = 'focus-ring rounded-sm font-semibold text-brand-600 hover:text-brand-700 dark:text-brand-400 dark:hover:text-brand-300';

/** Where the reset mail's link leads: a new password, twice, with the registration rules. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  // On unless unticked: whoever lost the password may have lost a device that holds an app password too.
  const [revokeAppPasswords, setRevokeAppPasswords] = useState(true);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  // A link that cannot work (missing, used, expired): the way on is a new one.
  const [linkError, setLinkError] = useState<string | null>(token ? null : t('auth.reset.missingToken'));
  const [formError, setFormError] = useState<string | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (reset.isPending) return;
    const errors: FieldErrors = {};
    if (!password) errors.password = t('auth.validation.passwordRequired');
    else if (password.length < PASSWORD_MIN_LENGTH) errors.password = t('auth.validation.passwordTooShort', { min: PASSWORD_MIN_LENGTH });
    if (!confirmPassword) errors.confirmPassword = t('auth.validation.confirmPasswordRequired');
    else if (confirmPassword !== password) errors.confirmPassword = t('auth.validation.passwordsDoNotMatch');
    setFieldErrors(errors);
    setFormError(null);
    if (errors.password) return passwordRef.current?.focus();
    if (errors.confirmPassword) return confirmRef.current?.focus();

    try {
      await reset.mutateAsync({ token, password, revokeAppPasswords });
      // Every session of the account ended, this browser's too.
      endSession(queryClient, 'unauthorized');
      notify.success('auth.reset.success');
      void navigate('/login', { replace: true });
    } catch (error) {
      const message = serverErrorMessage(error) ?? t('common.errors.unexpected');
      if (error instanceof ApiError && error.code === 'RESET_LINK_INVALID') setLinkError(message);
      else setFormError(message);
      notify.error('common.errors.unexpected', { error });
    }
  };

  return (
    <>
      <PageTitle title={t('auth.reset.pageTitle')} />
      <AuthCard
        title={t('auth.reset.title')}
        subtitle={t('auth.reset.subtitle')}
        footer={
          <Link to="/login" className={linkClass}>
            {t('auth.forgot.backToSignIn')}
          </Link>
        }
      >
        {linkError ? (
          <div className="flex flex-col gap-5">
            <FormAlert>{linkError}</FormAlert>
            <Link to="/forgot-password" className={`${linkClass} self-center text-sm`}>
              {t('auth.reset.requestNew')}
            </Link>
          </div>
        ) : (
          <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
            {formError && <FormAlert>{formError}</FormAlert>}
            <PasswordField
              ref={passwordRef}
              label={t('auth.reset.password')}
              name="password"
              autoComplete="new-password"
              hint={t('auth.register.passwordHint', { min: PASSWORD_MIN_LENGTH })}
              required
              value={password}
              onChange={(event) => {
                setPassword(event.target.value);
                if (fieldErrors.password) setFieldErrors((current) => ({ ...current, password: undefined }));
              }}
              error={fieldErrors.password}
            />
            <PasswordField
              ref={confirmRef}
              label={t('auth.register.confirmPassword')}
              name="confirmPassword"
              autoComplete="new-password"
              required
              value={confirmPassword}
              onChange={(event) => {
                setConfirmPassword(event.target.value);
                if (fieldErrors.confirmPassword) setFieldErrors((current) => ({ ...current, confirmPassword: undefined }));
              }}
              error={fieldErrors.confirmPassword}
            />
            <label className="flex items-start gap-3 text-sm">
              <input
                type="checkbox"
                name="revokeAppPasswords"
                checked={revokeAppPasswords}
                onChange={(event) => setRevokeAppPasswords(event.target.checked)}
                aria-describedby="revoke-app-passwords-hint"
                className="focus-ring mt-0.5 size-4 shrink-0 rounded-sm accent-brand-600"
              />
              <span className="flex flex-col gap-0.5">
                <span className="font-medium text-ink">{t('auth.reset.revokeAppPasswords')}</span>
                <span id="revoke-app-passwords-hint" className="text-ink-muted">
                  {t('auth.reset.revokeAppPasswordsHint')}
                </span>
              </span>
            </label>
            <Button type="submit" size="lg" fullWidth loading={reset.isPending} className="mt-1">
              {t('auth.reset.submit')}
            </Button>
          </form>
        )}
      </AuthCard>
    </>
  );
}
