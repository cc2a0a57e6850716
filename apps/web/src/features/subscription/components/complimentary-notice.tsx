import { Gift } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatDay } from '../../../lib/dates';

/** A plan our team granted free of charge: what it is and when it ends (it is never billed). */
export function ComplimentaryNotice({ endsAt, planName }: { endsAt: string; planName: string }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="flex items-start gap-3 rounded-control border border-brand-200 bg-brand-50 p-4 text-brand-900 dark:border-brand-800 dark:bg-brand-950 dark:text-brand-100">
      <Gift aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-600 dark:text-brand-300" />
      <p className="text-sm">{t('subscription.complimentary.notice', { plan: planName, date: formatDay(endsAt, i18n.language) })}</p>
    </div>
  );
}
