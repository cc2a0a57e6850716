import { ArrowDownRight, ArrowUpRight, CircleDot, CircleX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { HistoryEntry, HistoryType } from '@cloudvault/contract/subscriptions';
import { formatDay } from '../../../lib/dates';
import { recentChanges } from '../shown-items';

const icons: Record<HistoryType, typeof CircleDot> = {
  upgrade: ArrowUpRight,
  downgrade: ArrowDownRight,
  cancel: CircleX,
  other: CircleDot,
};

/** The 5 newest plan changes: type, the plan moved to, and when. */
export function RecentChanges({ history }: { history: readonly HistoryEntry[] }) {
  const { t, i18n } = useTranslation();
  const entries = recentChanges(history);
  return (
    <section aria-labelledby="recent-changes-title" className="rounded-card border border-line bg-surface p-5 shadow-card sm:p-6">
      <h2 id="recent-changes-title" className="font-semibold text-ink">
        {t('subscription.history.title')}
      </h2>
      {entries.length === 0 ? (
        <p className="mt-3 text-sm text-ink-muted">{t('subscription.history.empty')}</p>
      ) : (
        <ol className="mt-4 space-y-3">
          {entries.map((entry, index) => {
            const Icon = icons[entry.type] ?? CircleDot;
            return (
              <li key={`${entry.date}-${index}`} className="flex items-center gap-3">
                <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-surface-muted text-ink-muted">
                  <Icon aria-hidden="true" className="size-4" />
                </span>
                <div className="min-w-0 flex-1 text-sm">
                  <p className="truncate font-medium text-ink">
                    {t(`subscription.history.type.${entry.type}`)}
                    <span className="text-ink-subtle"> · </span>
                    {entry.planName}
                  </p>
                  <p className="text-xs text-ink-muted">
                    <time dateTime={entry.date}>{formatDay(entry.date, i18n.language)}</time>
                  </p>
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
