import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';
import { Spinner } from '../../../components/ui/spinner';
import { useSession } from '../../auth/hooks/use-session';

/** How long the "redirecting" notice stays before going to the dashboard. */
const REDIRECT_DELAY_MS = 1000;

/** Where the payment provider returns after checkout (`?session_id=…`). */
export function SuccessPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const sessionId = searchParams.get('session_id');
  const { user, refreshUser } = useSession();

  useEffect(() => {
    if (sessionId) {
      // The plan changed on the server: read the user again.
      void refreshUser();
      return;
    }
    const timer = window.setTimeout(() => void navigate('/dashboard', { replace: true }), REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [sessionId, navigate, refreshUser]);

  if (!sessionId) {
    return (
      <div className="flex flex-col items-center justify-center gap-4 py-24 text-center">
        <PageTitle title={t('success.pageTitle')} />
        <Spinner className="size-7 text-brand-600 dark:text-brand-400" />
        <h1 className="text-lg font-medium text-ink-muted">{t('success.redirecting')}</h1>
      </div>
    );
  }

  const plan = user && user.plan !== 'FREE' ? t(`common.plans.${user.plan}`) : t('success.fallbackPlan');
  return (
    <>
      <PageTitle title={t('success.pageTitle')} />
      <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">{t('success.title', { plan })}</h1>
    </>
  );
}
