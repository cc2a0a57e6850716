import { useTranslation } from 'react-i18next';
import { Cell, Pie, PieChart, Tooltip } from 'recharts';
import type { AnalyticsResponse } from '@cloudvault/contract/analytics';
import { categoryShares, seriesColor } from '../chart-data';
import { tooltipStyle } from '../../../components/ui/chart-theme';
import { ChartCard } from './chart-card';
import { useFormatSize } from '../../../lib/format-size';

const KNOWN = ['image', 'video', 'audio', 'document', 'archive', 'other'] as const;
type KnownCategory = (typeof KNOWN)[number];
const isKnown = (category: string): category is KnownCategory => (KNOWN as readonly string[]).includes(category);

/** Space by file category as a donut; the legend beside it lists every figure, so it is the text equivalent. */
export function CategoryChart({ categories }: { categories: AnalyticsResponse['byCategory'] }) {
  const { t } = useTranslation();
  const formatSize = useFormatSize();
  const label = (category: string) => t(`analytics.categories.${isKnown(category) ? category : 'other'}`);
  const shares = categoryShares(categories);

  return (
    <ChartCard id="analytics-categories-title" title={t('analytics.categories.title')}>
      {shares.length === 0 ? (
        <p className="text-sm text-ink-muted">{t('analytics.categories.empty')}</p>
      ) : (
        <div className="flex flex-col items-center gap-5 sm:flex-row">
          {/* Hidden from assistive technology, and so out of the Tab order too (the pie is focusable by default). */}
          <div aria-hidden="true" className="shrink-0">
            <PieChart accessibilityLayer={false} width={160} height={160}>
              <Pie
                rootTabIndex={-1}
                data={shares}
                dataKey="bytes"
                nameKey="category"
                innerRadius={48}
                outerRadius={76}
                paddingAngle={shares.length > 1 ? 2 : 0}
                stroke="var(--cv-surface)"
                isAnimationActive={false}
              >
                {shares.map((share, index) => (
                  <Cell key={share.category} fill={seriesColor(index)} />
                ))}
              </Pie>
              <Tooltip {...tooltipStyle} formatter={(bytes, category) => [formatSize(Number(bytes)), label(String(category))]} />
            </PieChart>
          </div>
          <ul aria-label={t('analytics.categories.listLabel')} className="grid w-full min-w-0 gap-2">
            {shares.map((share, index) => (
              <li key={share.category} className="flex items-center gap-3 text-sm">
                <span aria-hidden="true" className="size-3 shrink-0 rounded-full" style={{ background: seriesColor(index) }} />
                <span className="min-w-0 flex-1 truncate font-medium text-ink">{label(share.category)}</span>
                <span className="text-ink-muted tabular-nums">
                  {t('analytics.categories.figure', { percent: share.percent, size: formatSize(share.bytes), count: share.files })}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </ChartCard>
  );
}
