import { useTranslation } from 'react-i18next';
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { AnalyticsResponse } from '@cloudvault/contract/analytics';
import { formatDay } from '../../../lib/dates';
import { downloadRows, MAX_SHARE_LINES, seriesColor } from '../chart-data';
import { axisTick, tooltipStyle } from '../../../components/ui/chart-theme';
import { ChartCard } from './chart-card';

/**
 * Downloads per share per day: a line for each of the busiest shares, the totals as a
 * visible list and every day's counts in a visually hidden table.
 */
export function ShareDownloadsChart({ shares }: { shares: AnalyticsResponse['shareDownloads'] }) {
  const { t, i18n } = useTranslation();
  const rows = downloadRows(shares);
  const shown = shares.slice(0, MAX_SHARE_LINES);
  const day = (value: string) => formatDay(`${value}T12:00:00Z`, i18n.language);
  const shortDay = (value: string) =>
    new Date(`${value}T00:00:00Z`).toLocaleDateString(i18n.language, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const names = new Map(shares.map((share) => [share.shareId, share.name]));

  return (
    <ChartCard id="analytics-downloads-title" title={t('analytics.downloads.title')} description={t('analytics.downloads.description')}>
      {shares.length === 0 ? (
        <p className="text-sm text-ink-muted">{t('analytics.downloads.empty')}</p>
      ) : (
        <>
          <div aria-hidden="true" className="text-ink-muted">
            <LineChart
              responsive
              accessibilityLayer={false}
              data={rows}
              style={{ width: '100%', height: 200 }}
              margin={{ top: 8, right: 8, bottom: 0, left: -16 }}
            >
              <CartesianGrid stroke="currentColor" strokeOpacity={0.15} vertical={false} />
              <XAxis dataKey="day" tickFormatter={shortDay} tick={axisTick} stroke="currentColor" strokeOpacity={0.3} minTickGap={24} />
              <YAxis allowDecimals={false} tick={axisTick} stroke="currentColor" strokeOpacity={0.3} width={48} />
              <Tooltip
                {...tooltipStyle}
                labelFormatter={(value) => day(String(value))}
                formatter={(count, shareId) => [count, names.get(String(shareId)) ?? '']}
              />
              {shown.map((share, index) => (
                <Line
                  key={share.shareId}
                  type="monotone"
                  dataKey={share.shareId}
                  stroke={seriesColor(index)}
                  strokeWidth={2}
                  dot={rows.length < 15}
                />
              ))}
            </LineChart>
          </div>
          <ul aria-label={t('analytics.downloads.listLabel')} className="mt-3 grid gap-1.5">
            {shares.map((share, index) => (
              <li key={share.shareId} className="flex items-center gap-3 text-sm">
                <span
                  aria-hidden="true"
                  className="size-3 shrink-0 rounded-full"
                  style={{ background: index < MAX_SHARE_LINES ? seriesColor(index) : 'transparent' }}
                />
                <span className="min-w-0 flex-1 truncate font-medium text-ink">{share.name}</span>
                <span className="shrink-0 text-ink-muted tabular-nums">{t('analytics.downloads.total', { count: share.total })}</span>
              </li>
            ))}
          </ul>
          {/* sr-only on the wrapper: a table sizes to its content whatever its own width says. */}
          <div className="sr-only">
            <table>
              <caption>{t('analytics.downloads.tableCaption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('analytics.downloads.day')}</th>
                  {shown.map((share) => (
                    <th key={share.shareId} scope="col">
                      {share.name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.day}>
                    <th scope="row">{day(row.day)}</th>
                    {shown.map((share) => (
                      <td key={share.shareId}>{row[share.shareId]}</td>
                    ))}
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
