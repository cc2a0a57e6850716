import { LockKeyhole } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { PasswordField } from '../../../components/ui/password-field';
import { ApiError } from '../../../lib/api-client';
import { useUnlockShare } from '../api/unlock-share';

/** Why a password was refused, as the visitor should read it. */
function refusal(error: unknown): 'wrong' | 'tooMany' | 'gone' | 'failed' {
  if (!(error instanceof ApiError)) return 'failed';
  if (error.status === 401) return 'wrong';
  if (error.status === 429) return 'tooMany';
  if (error.status === 404 || error.status === 410) return 'gone';
  return 'failed';
}

/**
 * The password of a protected link. The right one gives an access grant for an hour
 * (`onUnlocked`); wrong guesses are limited by the server (429).
 */
export function SharePasswordForm({ token, lapsed, onUnlocked }: { token: string; lapsed: boolean; onUnlocked: (access: string) => void }) {
  const { t } = useTranslation();
  const unlock = useUnlockShare();
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState(false);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (unlock.isPending) return;
    if (!password) {
      setMissing(true);
      return;
    }
    unlock.mutate({ token, password }, { onSuccess: ({ accessToken }) => onUnlocked(accessToken) });
  };

  return (
    <div className="mx-auto w-full max-w-md rounded-card border border-line bg-surface p-6 shadow-card sm:p-8">
      <span className="grid size-12 place-items-center rounded-2xl bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-300">
        <LockKeyhole aria-hidden="true" className="size-6" />
      </span>
      <h1 className="mt-4 text-xl font-bold tracking-tight text-ink">{t('shares.public.passwordTitle')}</h1>
      <p className="mt-1.5 text-sm text-ink-muted">{lapsed ? t('shares.public.passwordLapsed') : t('shares.public.passwordHint')}</p>
      <form noValidate onSubmit={onSubmit} className="mt-6 flex flex-col gap-4">
        {unlock.isError && <FormAlert>{t(`shares.public.refused.${refusal(unlock.error)}`)}</FormAlert>}
        <PasswordField
          label={t('shares.public.password')}
          autoComplete="off"
          autoFocus
          value={password}
          error={missing && !password ? t('shares.public.passwordRequired') : undefined}
          onChange={(event) => setPassword(event.target.value)}
        />
        <Button type="submit" fullWidth loading={unlock.isPending}>
          {t('shares.public.unlock')}
        </Button>
      </form>
    </div>
  );
}
