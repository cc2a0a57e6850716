import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { FormAlert } from '../../../components/ui/form-alert';
import { PageTitle } from '../../../components/ui/page-title';
import { ContentSpinner } from '../../../components/ui/spinner';
import { useHandoff } from '../api/handoff';

/** A path of this site only (never `//host`), else the dashboard. */
const sameSitePath = (path: string | null) => (path && /^\/(?![/\\])/.test(path) ? path : '/dashboard');

/**
 * /login/single-sign-on: where the provider's callback lands after a sign-in. The one-time
 * code in the address's fragment (never sent to a server by the browser) is exchanged once
 * for the session, and taken out of the address and history at once.
 */
export function SingleSignOnLandingPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const handoff = useHandoff();
  const [failed, setFailed] = useState(false);
  // Once, even when React runs the effect twice.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const fragment = new URLSearchParams(window.location.hash.slice(1));
    window.history.replaceState(null, '', window.location.pathname);
    const code = fragment.get('code');
    if (!code) return setFailed(true);
    handoff.mutate(code, {
      onSuccess: () => void navigate(sameSitePath(fragment.get('next')), { replace: true }),
      onError: () => setFailed(true),
    });
  }, [handoff, navigate]);

  return (
    <>
      <PageTitle title={t('auth.singleSignOn.landing.pageTitle')} />
      {failed ? (
        <div className="flex flex-col gap-4">
          <FormAlert>{t('auth.singleSignOn.landing.failed')}</FormAlert>
          <Link to="/login" className="focus-ring rounded-sm text-sm font-semibold text-brand-600 hover:text-brand-700 dark:text-brand-400">
            {t('auth.singleSignOn.landing.backToSignIn')}
          </Link>
        </div>
      ) : (
        <div role="status" aria-live="polite" className="flex flex-col items-center gap-3">
          <ContentSpinner />
          <p className="text-sm text-ink-muted">{t('auth.singleSignOn.landing.signingIn')}</p>
        </div>
      )}
    </>
  );
}
