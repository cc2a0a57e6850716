import { CalendarClock } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { formatDay } from '../../../lib/dates';

interface EndingNoticeProps {
  endsAt: string;
  planName: string;
  reactivating: boolean;
  onReactivate: () => void;
}

/** The amber notice of a subscription set to end, with the way to keep it. */
export function EndingNotice({ endsAt, planName, reactivating, onReactivate }: EndingNoticeProps) {
  const { t, i18n } = useTranslation();
  return (
    <div className="flex flex-col gap-3 rounded-control border border-amber-300 bg-amber-50 p-4 text-amber-900 sm:flex-row sm:items-center sm:justify-between dark:border-amber-400/30 dark:bg-amber-400/10 dark:text-amber-100">
      <div className="flex items-start gap-3">
        <CalendarClock aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-600 dark:text-amber-300" />
        <div>
          <p className="font-semibold">{t('subscription.overview.endsOn', { date: formatDay(endsAt, i18n.language) })}</p>
          <p className="mt-0.5 text-sm text-amber-800 dark:text-amber-200/90">
            {t('subscription.overview.endsOnHint', { plan: planName })}
          </p>
        </div>
      </div>
      <Button variant="secondary" loading={reactivating} onClick={onReactivate} className="shrink-0">
        {t('subscription.overview.reactivate')}
      </Button>
    </div>
  );
}
