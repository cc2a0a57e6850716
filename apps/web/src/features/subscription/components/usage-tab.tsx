import { Download, File, FileText, Film, Folder, Image, Share2 } from 'lucide-react';
import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CurrentSubscriptionResponse } from '@cloudvault/contract/subscriptions';
import { StorageBar } from '../../../components/ui/storage-bar';
import { useFormatSize } from '../../../lib/format-size';
import { displayPercent, usagePercent } from '../../../lib/storage-usage';

type Icon = ComponentType<{ className?: string; 'aria-hidden'?: 'true' }>;

function Counters({ title, id, items }: { title: string; id: string; items: Array<{ label: string; value: number; icon: Icon }> }) {
  const { i18n } = useTranslation();
  return (
    <section aria-labelledby={id} className="rounded-card border border-line bg-surface p-5 shadow-card sm:p-6">
      <h2 id={id} className="font-semibold text-ink">
        {title}
      </h2>
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-[repeat(auto-fit,minmax(9rem,1fr))]">
        {items.map(({ label, value, icon: ItemIcon }) => (
          // A <dl> group may hold only its <dt> and <dd>: the icon lives inside the term.
          <div key={label} className="min-w-0 rounded-control bg-surface-muted px-3.5 py-3">
            <dt className="flex min-w-0 items-center gap-2 text-xs font-medium text-ink-muted">
              <ItemIcon aria-hidden="true" className="size-4 shrink-0 text-ink-subtle" />
              <span className="truncate">{label}</span>
            </dt>
            <dd className="mt-1 text-lg font-bold text-ink tabular-nums">{value.toLocaleString(i18n.language)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Usage: the storage bar (coloured as on the dashboard), activity counters, file types and the analytics. */
export function UsageTab({ current, analytics }: { current: CurrentSubscriptionResponse; analytics: ReactNode }) {
  const { t } = useTranslation();
  const formatSize = useFormatSize();
  const percent = usagePercent(current.storageUsed, current.storageLimit);
  const shown = displayPercent(percent);

  return (
    <div className="grid gap-6">
      <section aria-labelledby="usage-storage-title" className="rounded-card border border-line bg-surface p-5 shadow-card sm:p-6">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="usage-storage-title" className="font-semibold text-ink">
            {t('subscription.usage.storageTitle')}
          </h2>
          <p className="text-sm text-ink-muted">
            {t('subscription.usage.usage', { used: formatSize(current.storageUsed), limit: formatSize(current.storageLimit) })}
          </p>
        </div>
        <StorageBar
          percent={percent}
          label={t('subscription.usage.barLabel')}
          valueText={t('subscription.usage.percent', { percent: shown })}
          className="mt-4 h-3"
        />
        <p className="mt-2 text-xs text-ink-muted">{t('subscription.usage.percent', { percent: shown })}</p>
      </section>
      <Counters
        id="usage-activity-title"
        title={t('subscription.usage.countersTitle')}
        items={[
          { label: t('subscription.usage.files'), value: current.filesCount, icon: File },
          { label: t('subscription.usage.folders'), value: current.foldersCount, icon: Folder },
          { label: t('subscription.usage.shared'), value: current.sharedCount, icon: Share2 },
          { label: t('subscription.usage.downloads'), value: current.downloadsCount, icon: Download },
        ]}
      />
      <Counters
        id="usage-types-title"
        title={t('subscription.usage.fileTypesTitle')}
        items={[
          { label: t('subscription.usage.documents'), value: current.fileTypes.documents, icon: FileText },
          { label: t('subscription.usage.images'), value: current.fileTypes.images, icon: Image },
          { label: t('subscription.usage.videos'), value: current.fileTypes.videos, icon: Film },
        ]}
      />
      {analytics}
    </div>
  );
}
