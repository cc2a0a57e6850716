import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { notify } from '../../../lib/notify';
import { arrivalNotices } from '../arrival-notices';

/**
 * On arrival: `updated=true` and `session_id` each give their toast once, then leave the
 * address (replaced, no reload). `once` keeps a second run (React's strict mode) from counting.
 */
export function useArrivalNotices(): void {
  const [searchParams, setSearchParams] = useSearchParams();

  useEffect(() => {
    const { updated, portalReturn, remaining } = arrivalNotices(searchParams);
    if (!remaining) return;
    if (updated) notify.success('subscription.toast.updated', { once: true });
    if (portalReturn) notify.success('subscription.toast.portalReturn', { once: true });
    setSearchParams(remaining, { replace: true });
  }, [searchParams, setSearchParams]);
}
