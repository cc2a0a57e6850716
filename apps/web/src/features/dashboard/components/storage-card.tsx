import { HardDrive, Sparkles, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { StorageInfo } from '@cloudvault/contract/files';
import { buttonClasses } from '../../../components/ui/button';
import { StorageBar } from '../../../components/ui/storage-bar';
import { cn } from '../../../lib/cn';
import { useFormatSize } from '../../../lib/format-size';
import { displayPercent, usagePercent } from '../../../lib/storage-usage';
import { showFreeStorageWarning } from '../storage-usage';

/** Storage used against the quota, coloured by how full it is, with the way to more space. */
export function StorageCard({ storage, className }: { storage: StorageInfo | undefined; className?: string }) {
  const { t } = useTranslation();
  const formatSize = useFormatSize();
  const percent = storage ? usagePercent(storage.storageUsed, storage.storageLimit) : 0;
  const plan = storage?.plan ?? 'FREE';
  const shown = displayPercent(percent);

  return (
    <section
      aria-label={t('dashboard.storage.title')}
      className={cn('rounded-card border border-line bg-surface p-4 shadow-card sm:p-5', className)}
    >
      {/* The button goes under the title when both do not fit: French's is three words long. */}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-40 flex-1 items-center gap-3">
          <span className="grid size-9 shrink-0 place-items-center rounded-xl bg-surface-muted text-ink-muted">
            <HardDrive aria-hidden="true" className="size-4.5" />
          </span>
          <div className="min-w-0">
            <h2 className="text-sm font-semibold text-ink">{t('dashboard.storage.title')}</h2>
            <p className="text-xs text-ink-muted">
              {storage
                ? t('dashboard.storage.usage', { used: formatSize(storage.storageUsed), limit: formatSize(storage.storageLimit) })
                : '\u00a0'}
            </p>
          </div>
        </div>
        <Link to="/subscription" className={buttonClasses({ variant: plan === 'PREMIUM' ? 'secondary' : 'primary', size: 'sm' })}>
          {plan !== 'PREMIUM' && <Sparkles aria-hidden="true" className="size-4" />}
          {plan === 'PREMIUM' ? t('dashboard.storage.managePlan') : t('dashboard.storage.upgrade')}
        </Link>
      </div>
      <StorageBar
        percent={percent}
        label={t('dashboard.storage.barLabel')}
        valueText={t('dashboard.storage.percent', { percent: shown })}
        className="mt-4"
      />
      <div className="mt-2 flex items-center justify-between text-xs text-ink-muted">
        <span>{t('dashboard.storage.percent', { percent: shown })}</span>
        <span>{t('dashboard.storage.plan', { plan: t(`common.plans.${plan}`) })}</span>
      </div>
      {storage && showFreeStorageWarning(plan, percent) && (
        <div
          role="alert"
          className="mt-3 flex items-start gap-2 rounded-control border border-yellow-300/60 bg-yellow-50 px-3 py-2 text-xs text-yellow-900 dark:border-yellow-500/30 dark:bg-yellow-500/10 dark:text-yellow-200"
        >
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <div>
            <p className="font-semibold">{t('dashboard.storage.freeWarningTitle')}</p>
            <p>{t('dashboard.storage.freeWarning', { percent: shown })}</p>
          </div>
        </div>
      )}
    </section>
  );
}
