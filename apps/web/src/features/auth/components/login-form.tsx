import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { PasswordField } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';
import { ApiError } from '../../../lib/api-client';
import { useLogin } from '../api/login';

interface FieldErrors {
  email?: string;
  password?: string;
}

export function LoginForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loginMutation = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (loginMutation.isPending) return;

    const errors: FieldErrors = {};
    if (!email.trim()) errors.email = t('auth.validation.emailRequired');
    if (!password) errors.password = t('auth.validation.passwordRequired');
    setFieldErrors(errors);
    setFormError(null);
    if (errors.email) return emailRef.current?.focus();
    if (errors.password) return passwordRef.current?.focus();

    try {
      await loginMutation.mutateAsync({ email: email.trim(), password });
      toast.success(t('auth.login.success'));
      void navigate('/dashboard', { replace: true });
    } catch (error) {
      const message =
        error instanceof ApiError ? (error.serverMessage ?? t('auth.login.failed')) : t('common.errors.unexpected');
      setFormError(message);
      toast.error(message);
    }
  };

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      {formError && <FormAlert>{formError}</FormAlert>}
      <TextField
        ref={emailRef}
        label={t('auth.login.email')}
        name="email"
        type="email"
        autoComplete="email"
        inputMode="email"
        required
        value={email}
        onChange={(event) => {
          setEmail(event.target.value);
          if (fieldErrors.email) setFieldErrors((current) => ({ ...current, email: undefined }));
        }}
        error={fieldErrors.email}
      />
      <PasswordField
        ref={passwordRef}
        label={t('auth.login.password')}
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(event) => {
          setPassword(event.target.value);
          if (fieldErrors.password) setFieldErrors((current) => ({ ...current, password: undefined }));
        }}
        error={fieldErrors.password}
      />
      <Button type="submit" size="lg" fullWidth loading={loginMutation.isPending} className="mt-1">
        {t('auth.login.submit')}
      </Button>
    </form>
  );
}
