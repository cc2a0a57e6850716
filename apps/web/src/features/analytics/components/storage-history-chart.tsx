import { useTranslation } from 'react-i18next';
import { Area, AreaChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import type { AnalyticsResponse } from '@cloudvault/contract/analytics';
import { formatDay } from '../../../lib/dates';
import { SERIES_COLORS } from '../chart-data';
import { axisTick, tooltipStyle } from '../../../components/ui/chart-theme';
import { ChartCard } from './chart-card';
import { useFormatSize } from '../../../lib/format-size';

/** Storage used at the end of each day of the last 90, with the same figures as a (visually hidden) table. */
export function StorageHistoryChart({ history }: { history: AnalyticsResponse['storageHistory'] }) {
  const { t, i18n } = useTranslation();
  const formatSize = useFormatSize();
  const shortDay = (day: string) =>
    new Date(`${day}T00:00:00Z`).toLocaleDateString(i18n.language, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const color = SERIES_COLORS[0];

  return (
    <ChartCard
      id="analytics-storage-title"
      title={t('analytics.storage.title')}
      description={t('analytics.storage.description')}
      className="lg:col-span-2"
    >
      {history.length === 0 ? (
        <p className="text-sm text-ink-muted">{t('analytics.storage.empty')}</p>
      ) : (
        <>
          <div aria-hidden="true" className="text-ink-muted">
            <AreaChart
              responsive
              accessibilityLayer={false}
              data={history}
              style={{ width: '100%', height: 220 }}
              margin={{ top: 16, right: 8, bottom: 0, left: 0 }}
            >
              <defs>
                <linearGradient id="analytics-storage-fill" x1="0" y1="0" x2="0" y2="1">
                  <stop offset="0%" stopColor={color} stopOpacity={0.35} />
                  <stop offset="100%" stopColor={color} stopOpacity={0.02} />
                </linearGradient>
              </defs>
              <CartesianGrid stroke="currentColor" strokeOpacity={0.15} vertical={false} />
              <XAxis dataKey="day" tickFormatter={shortDay} tick={axisTick} stroke="currentColor" strokeOpacity={0.3} minTickGap={24} />
              <YAxis
                tickFormatter={(bytes: number) => formatSize(bytes)}
                tick={axisTick}
                stroke="currentColor"
                strokeOpacity={0.3}
                width={80}
              />
              <Tooltip
                {...tooltipStyle}
                labelFormatter={(day) => formatDay(`${String(day)}T12:00:00Z`, i18n.language)}
                formatter={(bytes) => [formatSize(Number(bytes)), t('analytics.storage.used')]}
              />
              <Area
                type="monotone"
                dataKey="bytes"
                stroke={color}
                strokeWidth={2}
                fill="url(#analytics-storage-fill)"
                dot={history.length === 1}
              />
            </AreaChart>
          </div>
          {/* sr-only on the wrapper: a table sizes to its content whatever its own width says. */}
          <div className="sr-only">
            <table>
              <caption>{t('analytics.storage.tableCaption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('analytics.storage.day')}</th>
                  <th scope="col">{t('analytics.storage.used')}</th>
                </tr>
              </thead>
              <tbody>
                {history.map(({ day, bytes }) => (
                  <tr key={day}>
                    <td>{formatDay(`${day}T12:00:00Z`, i18n.language)}</td>
                    <td>{formatSize(bytes)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </ChartCard>
  );
}
