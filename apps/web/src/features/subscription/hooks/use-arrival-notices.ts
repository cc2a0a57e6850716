import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { arrivalNotices } from '../arrival-notices';

/**
 * On arrival: `updated=true` and `session_id` each give their toast once, then leave the
 * address (replaced, no reload). Toast ids keep a second run (React's strict mode) silent.
 */
export function useArrivalNotices(): void {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();

  useEffect(() => {
    const { updated, portalReturn, remaining } = arrivalNotices(searchParams);
    if (!remaining) return;
    if (updated) toast.success(t('subscription.toast.updated'), { id: 'subscription-updated' });
    if (portalReturn) toast.success(t('subscription.toast.portalReturn'), { id: 'subscription-portal-return' });
    setSearchParams(remaining, { replace: true });
  }, [searchParams, setSearchParams, t]);
}
