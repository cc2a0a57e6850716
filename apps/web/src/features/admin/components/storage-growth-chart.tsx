import { useTranslation } from 'react-i18next';
import { Area, AreaChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import type { AdminStatsResponse } from '@cloudvault/contract/admin';
import { axisTick, tooltipStyle } from '../../../components/ui/chart-theme';
import { formatDay } from '../../../lib/dates';
import { useFormatSize } from '../../../lib/format-size';
import { storageGrowth } from '../figures';
import { Panel } from './page-states';

const COLOR = '#14b8a6';

/** All accounts' storage per day from the daily snapshots, with its growth in a sentence and the days in a hidden table. */
export function StorageGrowthChart({ history }: { history: AdminStatsResponse['storageHistory'] }) {
  const { t, i18n } = useTranslation();
  const formatSize = useFormatSize();
  const language = i18n.language;
  const shortDay = (day: string) =>
    new Date(`${day}T00:00:00Z`).toLocaleDateString(language, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const growth = storageGrowth(history);
  const latest = history.at(-1);

  return (
    <Panel id="admin-storage-title" title={t('admin.storage.title')} description={t('admin.storage.description')} className="lg:col-span-2">
      {!latest ? (
        <p className="text-sm text-ink-muted">{t('admin.storage.empty')}</p>
      ) : (
        <figure>
          <div aria-hidden="true" className="text-ink-muted">
            <AreaChart
              responsive
              accessibilityLayer={false}
              data={history}
              style={{ width: '100%', height: 220 }}
              margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
            >
              <defs>
                <linearGradient id="admin-storage-fill" x1="0" y1="0" x2="0" y2="1">
                  <stop offset="0%" stopColor={COLOR} stopOpacity={0.35} />
                  <stop offset="100%" stopColor={COLOR} stopOpacity={0.02} />
                </linearGradient>
              </defs>
              <CartesianGrid stroke="currentColor" strokeOpacity={0.15} vertical={false} />
              <XAxis dataKey="day" tickFormatter={shortDay} tick={axisTick} stroke="currentColor" strokeOpacity={0.3} minTickGap={24} />
              <YAxis
                tickFormatter={(bytes: number) => formatSize(bytes)}
                tick={axisTick}
                stroke="currentColor"
                strokeOpacity={0.3}
                width={88}
              />
              <Tooltip
                {...tooltipStyle}
                labelFormatter={(day) => formatDay(`${String(day)}T12:00:00Z`, language)}
                formatter={(bytes) => [formatSize(Number(bytes)), t('admin.storage.used')]}
              />
              <Area
                type="monotone"
                dataKey="bytes"
                stroke={COLOR}
                strokeWidth={2}
                fill="url(#admin-storage-fill)"
                dot={history.length === 1}
              />
            </AreaChart>
          </div>
          <figcaption className="mt-3 text-sm text-ink-muted">
            {growth
              ? t('admin.storage.summary', {
                  size: formatSize(latest.bytes),
                  growth: `${growth.bytes < 0 ? '−' : '+'}${formatSize(Math.abs(growth.bytes))}`,
                  count: growth.days,
                })
              : t('admin.storage.summaryOneDay', { size: formatSize(latest.bytes) })}
          </figcaption>
          <div className="sr-only">
            <table>
              <caption>{t('admin.storage.tableCaption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('admin.storage.day')}</th>
                  <th scope="col">{t('admin.storage.used')}</th>
                </tr>
              </thead>
              <tbody>
                {history.map(({ day, bytes }) => (
                  <tr key={day}>
                    <th scope="row">{formatDay(`${day}T12:00:00Z`, language)}</th>
                    <td>{formatSize(bytes)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </figure>
      )}
    </Panel>
  );
}
