import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PASSWORD_MIN_LENGTH } from '@cloudvault/contract/validation';
import { Button, buttonClasses } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { PasswordField } from '../../../components/ui/password-field';
import { ProviderConfirmation } from '../../../components/ui/provider-confirmation';
import { useProviderConfirmation } from '../../../hooks/use-provider-confirmation';
import { useSession } from '../../../hooks/use-session';
import { serverErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useChangePassword } from '../api/change-password';
import { ProfileCard } from './profile-card';

type Field = 'current' | 'next' | 'confirm';
const EMPTY: Record<Field, string> = { current: '', next: '', confirm: '' };

/** Change password (docs/product.md#profile): the button waits until all three fields are filled. */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const change = useChangePassword();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  // App passwords outlive a password change: after one, how many still sign in, to review.
  const [appPasswordsRemaining, setAppPasswordsRemaining] = useState(0);
  // An account made through single sign-on sets its first password after confirming with the provider.
  const provider = useProviderConfirmation();
  const { updateUser } = useSession();
  const anyEmpty = (!values.current && !provider) || !values.next || !values.confirm;

  const set = (field: Field) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (change.isPending) return;
    setFormError(null);
    setAppPasswordsRemaining(0);
    const found: Partial<Record<Field, string>> = {};
    if (!values.current && !provider) found.current = t('profile.password.currentRequired');
    if (values.next !== values.confirm) found.confirm = t('profile.password.mismatch');
    else if (values.next.length < PASSWORD_MIN_LENGTH) found.next = t('profile.password.tooShort', { min: PASSWORD_MIN_LENGTH });
    setErrors(found);
    if (Object.keys(found).length > 0) return;

    try {
      const answer = await change.mutateAsync({ currentPassword: values.current, newPassword: values.next });
      notify.success('profile.password.changed');
      updateUser({ hasPassword: true });
      setAppPasswordsRemaining(answer.appPasswordsRemaining);
      setValues(EMPTY);
    } catch (caught) {
      setFormError(serverErrorMessage(caught) ?? t('profile.password.failed'));
      notify.error('profile.password.failed', { error: caught });
    }
  };

  return (
    <ProfileCard title={t('profile.password.title')} description={t('profile.password.description')}>
      <form noValidate onSubmit={onSubmit} className="flex max-w-md flex-col gap-5">
        {formError && <FormAlert>{formError}</FormAlert>}
        {provider ? (
          <ProviderConfirmation label={provider.label} />
        ) : (
          <PasswordField
            label={t('profile.password.current')}
            name="currentPassword"
            autoComplete="current-password"
            value={values.current}
            onChange={(event) => set('current')(event.target.value)}
            error={errors.current}
          />
        )}
        <PasswordField
          label={t('profile.password.new')}
          name="newPassword"
          autoComplete="new-password"
          hint={t('profile.password.hint', { min: PASSWORD_MIN_LENGTH })}
          value={values.next}
          onChange={(event) => set('next')(event.target.value)}
          error={errors.next}
        />
        <PasswordField
          label={t('profile.password.confirm')}
          name="confirmPassword"
          autoComplete="new-password"
          value={values.confirm}
          onChange={(event) => set('confirm')(event.target.value)}
          error={errors.confirm}
        />
        <Button type="submit" disabled={anyEmpty} loading={change.isPending} className="self-start">
          {t('profile.password.submit')}
        </Button>
      </form>
      <div role="status" className="max-w-md">
        {appPasswordsRemaining > 0 && (
          <div className="mt-5 flex flex-col items-start gap-3 rounded-control border border-line bg-surface-muted p-4 text-sm text-ink">
            <p>{t('profile.password.appPasswordsRemain', { count: appPasswordsRemaining })}</p>
            <Link to="/settings#devices" className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
              {t('profile.password.reviewAppPasswords')}
            </Link>
          </div>
        )}
      </div>
    </ProfileCard>
  );
}
