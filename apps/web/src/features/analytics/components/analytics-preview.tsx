import { ChartArea, ChartPie, Download, FolderTree, Sparkles } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';

/** Free and Pro: what the Business analytics show, and the way to the plans. */
export function AnalyticsPreview() {
  const { t } = useTranslation();
  const points = [
    { icon: ChartArea, text: t('analytics.preview.storage') },
    { icon: ChartPie, text: t('analytics.preview.categories') },
    { icon: FolderTree, text: t('analytics.preview.largest') },
    { icon: Download, text: t('analytics.preview.downloads') },
  ];
  return (
    <div className="rounded-card border border-brand-200 bg-brand-50 p-5 sm:p-6 dark:border-brand-800 dark:bg-brand-950/60">
      <p className="inline-flex items-center gap-1.5 text-xs font-semibold uppercase tracking-wide text-brand-700 dark:text-brand-300">
        <Sparkles aria-hidden="true" className="size-3.5" />
        {t('analytics.preview.badge')}
      </p>
      <p className="mt-2 font-semibold text-ink">{t('analytics.preview.title')}</p>
      <ul className="mt-3 grid gap-2 sm:grid-cols-2">
        {points.map(({ icon: Icon, text }) => (
          <li key={text} className="flex items-start gap-2 text-sm text-ink-muted">
            <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600 dark:text-brand-300" />
            {text}
          </li>
        ))}
      </ul>
      <Link to="/pricing" className={`${buttonClasses({ size: 'sm' })} mt-4`}>
        {t('analytics.preview.cta')}
      </Link>
    </div>
  );
}
