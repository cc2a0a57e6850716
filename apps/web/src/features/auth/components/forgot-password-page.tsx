import { MailCheck } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isValidEmail } from '@cloudvault/contract/validation';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { PageTitle } from '../../../components/ui/page-title';
import { TextField } from '../../../components/ui/text-field';
import { serverErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useForgotPassword } from '../api/password-recovery';
import { AuthCard } from './auth-card';

const linkClass = 'focus-ring rounded-sm font-semibold text-brand-600 hover:text-brand-700 dark:text-brand-400 dark:hover:text-brand-300';

/** 'Forgot password?': asks for the e-mail and answers the same whether or not it has an account. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const forgot = useForgotPassword();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (forgot.isPending) return;
    const trimmed = email.trim();
    const error = !trimmed ? t('auth.validation.emailRequired') : !isValidEmail(trimmed) ? t('auth.validation.emailInvalid') : undefined;
    setFieldError(error);
    setFormError(null);
    if (error) return emailRef.current?.focus();
    try {
      await forgot.mutateAsync({ email: trimmed });
      setSent(true);
    } catch (caught) {
      setFormError(serverErrorMessage(caught) ?? t('common.errors.unexpected'));
      notify.error('common.errors.unexpected', { error: caught });
    }
  };

  return (
    <>
      <PageTitle title={t('auth.forgot.pageTitle')} />
      <AuthCard
        title={t('auth.forgot.title')}
        subtitle={t('auth.forgot.subtitle')}
        footer={
          <Link to="/login" className={linkClass}>
            {t('auth.forgot.backToSignIn')}
          </Link>
        }
      >
        {sent ? (
          <div role="status" className="flex flex-col items-center gap-3 text-center">
            <MailCheck aria-hidden="true" className="size-10 text-brand-600 dark:text-brand-400" />
            <p className="text-sm text-ink">{t('auth.forgot.sent')}</p>
          </div>
        ) : (
          <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
            {formError && <FormAlert>{formError}</FormAlert>}
            <TextField
              ref={emailRef}
              label={t('auth.forgot.email')}
              name="email"
              type="email"
              autoComplete="email"
              inputMode="email"
              required
              value={email}
              onChange={(event) => {
                setEmail(event.target.value);
                if (fieldError) setFieldError(undefined);
              }}
              error={fieldError}
            />
            <Button type="submit" size="lg" fullWidth loading={forgot.isPending} className="mt-1">
              {t('auth.forgot.submit')}
            </Button>
          </form>
        )}
      </AuthCard>
    </>
  );
}
