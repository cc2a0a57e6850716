import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { PasswordField } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';
import { ApiError, serverErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useLogin } from '../api/login';
import type { PasskeySlot } from '../passkey-slot';

interface FieldErrors {
  email?: string;
  password?: string;
  code?: string;
}

/** The server's answer when the password was right and a two-factor code is needed (docs/api.md#accounts). */
function asksForCode(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status === 401 &&
    (error.body as { twoFactorRequired?: unknown } | undefined)?.twoFactorRequired === true
  );
}

/** With the request for a code: whether one of the account's passkeys may stand in for it. */
const offersPasskey = (error: unknown) =>
  error instanceof ApiError && (error.body as { passkeyAvailable?: unknown } | undefined)?.passkeyAvailable === true;

export function LoginForm({ passkeys }: { passkeys: PasskeySlot }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loginMutation = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Two-factor sign-in: after the server asks for it, a code (TOTP or recovery) goes with the password.
  const [needsCode, setNeedsCode] = useState(false);
  const [code, setCode] = useState('');
  const [passkeyAvailable, setPasskeyAvailable] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  passkeys.useAutofill();

  /** After the code was asked for: a passkey instead (the same password goes with it). */
  const finishWithPasskey = async () => {
    if (loginMutation.isPending) return;
    setFormError(null);
    const answer = await passkeys.secondFactor();
    if ('failure' in answer) return setFormError(answer.failure);
    try {
      await loginMutation.mutateAsync({ email: email.trim(), password, passkey: answer.assertion });
      notify.success('auth.login.success');
      void navigate('/dashboard', { replace: true });
    } catch (error) {
      setFormError(serverErrorMessage(error) ?? t('auth.login.failed'));
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (loginMutation.isPending) return;

    const errors: FieldErrors = {};
    if (!email.trim()) errors.email = t('auth.validation.emailRequired');
    if (!password) errors.password = t('auth.validation.passwordRequired');
    if (needsCode && !code.trim()) errors.code = t('auth.login.codeRequired');
    setFieldErrors(errors);
    setFormError(null);
    if (errors.email) return emailRef.current?.focus();
    if (errors.password) return passwordRef.current?.focus();
    if (errors.code) return codeRef.current?.focus();

    try {
      await loginMutation.mutateAsync({ email: email.trim(), password, ...(needsCode ? { totpCode: code.trim() } : {}) });
      notify.success('auth.login.success');
      void navigate('/dashboard', { replace: true });
    } catch (error) {
      if (asksForCode(error) && !needsCode) {
        // Not a failure: the password was right and the second step begins.
        setNeedsCode(true);
        setPasskeyAvailable(offersPasskey(error));
        return;
      }
      // The server's reason in the user's language (a suspended account's 403 says so).
      const fallback = error instanceof ApiError ? 'auth.login.failed' : 'common.errors.unexpected';
      setFormError(serverErrorMessage(error) ?? t(fallback));
      notify.error(fallback, { error });
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
        // `webauthn` lets the browser offer passkeys among the suggestions (passkeys.useAutofill).
        autoComplete="username webauthn"
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
      <Link
        to="/forgot-password"
        className="focus-ring -mt-3 self-end rounded-sm text-sm font-medium text-brand-600 hover:text-brand-700 dark:text-brand-400 dark:hover:text-brand-300"
      >
        {t('auth.login.forgotPassword')}
      </Link>
      {needsCode && (
        <TextField
          ref={codeRef}
          label={t('auth.login.code')}
          hint={t('auth.login.codeHint')}
          name="totpCode"
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          maxLength={32}
          value={code}
          onChange={(event) => {
            setCode(event.target.value);
            if (fieldErrors.code) setFieldErrors((current) => ({ ...current, code: undefined }));
          }}
          error={fieldErrors.code}
        />
      )}
      <Button type="submit" size="lg" fullWidth loading={loginMutation.isPending} className="mt-1">
        {t('auth.login.submit')}
      </Button>
      {needsCode && passkeyAvailable && (
        <Button variant="secondary" size="lg" fullWidth disabled={loginMutation.isPending} onClick={() => void finishWithPasskey()}>
          {t('auth.passkey.useInstead')}
        </Button>
      )}
    </form>
  );
}
