import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmWithProvider } from '../../lib/sign-in-methods';
import { Button } from './button';

/**
 * In place of the password field, for an account without a password: the user signs in at
 * the provider again, comes back to this page, and for five minutes may go on without a
 * password (the server checks; `error` is its answer when they have not).
 */
export function ProviderConfirmation({ label, error }: { label: string; error?: string | undefined }) {
  const { t } = useTranslation();
  const [leaving, setLeaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const confirmed = new URLSearchParams(window.location.search).get('sso') === 'reauthenticated';

  const confirm = async () => {
    setLeaving(true);
    setFailed(false);
    try {
      await confirmWithProvider(window.location.pathname);
    } catch {
      setLeaving(false);
      setFailed(true);
    }
  };

  return (
    <div className="flex flex-col gap-3 rounded-control border border-line p-3">
      <p className="flex items-start gap-2 text-sm text-ink-muted">
        <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>{confirmed ? t('auth.singleSignOn.reauth.confirmed', { label }) : t('auth.singleSignOn.reauth.notice', { label })}</span>
      </p>
      {(error || failed) && (
        <p role="alert" className="text-sm font-medium text-danger">
          {failed ? t('auth.singleSignOn.refused.unavailable') : error}
        </p>
      )}
      <Button variant="secondary" onClick={() => void confirm()} loading={leaving}>
        {t('auth.singleSignOn.reauth.button', { label })}
      </Button>
    </div>
  );
}
