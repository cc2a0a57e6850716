import { useRef, useState, type FormEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PASSWORD_MIN_LENGTH, isValidEmail } from '@cloudvault/contract/validation';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { PasswordField } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';
import { ApiError, serverErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useRegister } from '../api/register';

type Field = 'firstName' | 'lastName' | 'email' | 'password' | 'confirmPassword';
type Values = Record<Field, string>;
type FieldErrors = Partial<Record<Field, string>>;

const FIELDS: Field[] = ['firstName', 'lastName', 'email', 'password', 'confirmPassword'];
const EMPTY: Values = { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' };

export function RegisterForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const registerMutation = useRegister();
  // An invitation to a shared folder links here with its address: the share needs that one.
  const [params] = useSearchParams();
  const [values, setValues] = useState<Values>(() => ({ ...EMPTY, email: params.get('email') ?? '' }));
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const refs: Record<Field, RefObject<HTMLInputElement | null>> = {
    firstName: useRef<HTMLInputElement>(null),
    lastName: useRef<HTMLInputElement>(null),
    email: useRef<HTMLInputElement>(null),
    password: useRef<HTMLInputElement>(null),
    confirmPassword: useRef<HTMLInputElement>(null),
  };

  /** Every rule the server would apply, checked before anything is sent. */
  const validate = (): FieldErrors => {
    const errors: FieldErrors = {};
    if (!values.firstName.trim()) errors.firstName = t('auth.validation.firstNameRequired');
    if (!values.lastName.trim()) errors.lastName = t('auth.validation.lastNameRequired');
    const email = values.email.trim();
    if (!email) errors.email = t('auth.validation.emailRequired');
    else if (!isValidEmail(email)) errors.email = t('auth.validation.emailInvalid');
    if (!values.password) errors.password = t('auth.validation.passwordRequired');
    else if (values.password.length < PASSWORD_MIN_LENGTH)
      errors.password = t('auth.validation.passwordTooShort', { min: PASSWORD_MIN_LENGTH });
    if (!values.confirmPassword) errors.confirmPassword = t('auth.validation.confirmPasswordRequired');
    else if (values.confirmPassword !== values.password) errors.confirmPassword = t('auth.validation.passwordsDoNotMatch');
    return errors;
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (registerMutation.isPending) return;

    const errors = validate();
    setFieldErrors(errors);
    setFormError(null);
    const firstInvalid = FIELDS.find((field) => errors[field]);
    if (firstInvalid) {
      // The password rules are also announced as a toast, mismatch first.
      if (values.password && values.confirmPassword && values.password !== values.confirmPassword)
        notify.error('auth.validation.passwordsDoNotMatch');
      else if (values.password && values.password.length < PASSWORD_MIN_LENGTH)
        notify.error('auth.validation.passwordTooShort', { values: { min: PASSWORD_MIN_LENGTH } });
      refs[firstInvalid].current?.focus();
      return;
    }

    try {
      await registerMutation.mutateAsync({
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        email: values.email.trim(),
        password: values.password,
      });
      notify.success('auth.register.success');
      void navigate('/dashboard', { replace: true });
    } catch (error) {
      // The server's reason in the user's language (an address already taken says so).
      const fallback = error instanceof ApiError ? 'auth.register.failed' : 'common.errors.unexpected';
      setFormError(serverErrorMessage(error) ?? t(fallback));
      notify.error(fallback, { error });
    }
  };

  const fieldProps = (field: Field) => ({
    ref: refs[field],
    name: field,
    required: true,
    value: values[field],
    error: fieldErrors[field],
    onChange: (event: { target: { value: string } }) => {
      const { value } = event.target;
      setValues((current) => ({ ...current, [field]: value }));
      if (fieldErrors[field]) setFieldErrors((current) => ({ ...current, [field]: undefined }));
    },
  });

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      {formError && <FormAlert>{formError}</FormAlert>}
      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <TextField label={t('auth.register.firstName')} autoComplete="given-name" {...fieldProps('firstName')} />
        <TextField label={t('auth.register.lastName')} autoComplete="family-name" {...fieldProps('lastName')} />
      </div>
      <TextField label={t('auth.register.email')} type="email" inputMode="email" autoComplete="email" {...fieldProps('email')} />
      <PasswordField
        label={t('auth.register.password')}
        autoComplete="new-password"
        hint={t('auth.register.passwordHint', { min: PASSWORD_MIN_LENGTH })}
        {...fieldProps('password')}
      />
      <PasswordField label={t('auth.register.confirmPassword')} autoComplete="new-password" {...fieldProps('confirmPassword')} />
      <Button type="submit" size="lg" fullWidth loading={registerMutation.isPending} className="mt-1">
        {t('auth.register.submit')}
      </Button>
      <div className="space-y-1 text-center text-xs leading-relaxed text-ink-muted">
        <p>{t('auth.register.terms')}</p>
        <p className="font-medium text-brand-700 dark:text-brand-300">{t('auth.register.freeStorage')}</p>
      </div>
    </form>
  );
}
