import { History } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';

/** Free and Pro: what version history would give, and the way to Business. */
export function VersionsUpgradePrompt({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="rounded-card border border-brand-200 bg-brand-50 p-4 dark:border-brand-800 dark:bg-brand-950/60">
      <div className="flex items-start gap-3">
        <History aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-600 dark:text-brand-300" />
        <div className="min-w-0">
          <p className="font-semibold text-ink">{t('versions.upgrade.title')}</p>
          <p className="mt-1 text-sm text-ink-muted">{t('versions.upgrade.body')}</p>
          <Link to="/subscription" onClick={onNavigate} className={cn(buttonClasses({ size: 'sm' }), 'mt-3')}>
            {t('versions.upgrade.cta')}
          </Link>
        </div>
      </div>
    </div>
  );
}
