import { Pencil } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '@cloudvault/contract/accounts';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { notify } from '../../../lib/notify';
import { useUpdateProfile } from '../api/update-profile';
import { ProfileCard } from './profile-card';

/** The Profile tab: names shown, or edited after Edit Profile; the e-mail never changes. */
export function ProfileDetailsTab({ user }: { user: User }) {
  const { t } = useTranslation();
  const update = useUpdateProfile();
  const [editing, setEditing] = useState(false);
  const [firstName, setFirstName] = useState(user.firstName);
  const [lastName, setLastName] = useState(user.lastName);
  const [error, setError] = useState<string | undefined>();

  // Both entering and leaving edit mode start again from the saved values.
  const reset = (nextEditing: boolean) => {
    setFirstName(user.firstName);
    setLastName(user.lastName);
    setError(undefined);
    setEditing(nextEditing);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (update.isPending) return;
    const names = { firstName: firstName.trim(), lastName: lastName.trim() };
    if (!names.firstName || !names.lastName) {
      setError(t('profile.details.namesRequired'));
      return;
    }
    try {
      await update.mutateAsync(names);
      notify.success('profile.details.updated');
      setEditing(false);
    } catch (caught) {
      notify.error('profile.details.updateFailed', { error: caught });
    }
  };

  if (!editing) {
    return (
      <ProfileCard
        title={t('profile.details.title')}
        description={t('profile.details.description')}
        actions={
          <Button variant="secondary" size="sm" onClick={() => reset(true)}>
            <Pencil aria-hidden="true" className="size-4" />
            {t('profile.details.edit')}
          </Button>
        }
      >
        <dl className="grid gap-5 sm:grid-cols-2">
          <Field term={t('profile.details.firstName')}>{user.firstName}</Field>
          <Field term={t('profile.details.lastName')}>{user.lastName}</Field>
          <Field term={t('profile.details.email')}>{user.email}</Field>
        </dl>
      </ProfileCard>
    );
  }

  return (
    <ProfileCard title={t('profile.details.title')} description={t('profile.details.description')}>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            label={t('profile.details.firstName')}
            name="firstName"
            autoComplete="given-name"
            autoFocus
            value={firstName}
            onChange={(event) => {
              setFirstName(event.target.value);
              setError(undefined);
            }}
            error={error && !firstName.trim() ? error : undefined}
          />
          <TextField
            label={t('profile.details.lastName')}
            name="lastName"
            autoComplete="family-name"
            value={lastName}
            onChange={(event) => {
              setLastName(event.target.value);
              setError(undefined);
            }}
            error={error && firstName.trim() ? error : undefined}
          />
          <TextField
            label={t('profile.details.email')}
            name="email"
            type="email"
            value={user.email}
            disabled
            hint={t('profile.details.emailHint')}
            className="sm:col-span-2"
          />
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => reset(false)} disabled={update.isPending}>
            {t('profile.details.cancel')}
          </Button>
          <Button type="submit" loading={update.isPending}>
            {t('profile.details.save')}
          </Button>
        </div>
      </form>
    </ProfileCard>
  );
}

function Field({ term, children }: { term: string; children: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm font-medium text-ink-muted">{term}</dt>
      <dd className="mt-1 truncate text-[0.9375rem] text-ink">{children}</dd>
    </div>
  );
}
