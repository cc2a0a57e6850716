import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import type { AdminStatsResponse } from '@cloudvault/contract/admin';
import { axisTick, tooltipStyle } from '../../../components/ui/chart-theme';
import { formatChange, formatMonth, formatMoney, revenueTrend } from '../figures';
import { Panel } from './page-states';

const NET_COLOR = '#4f6bff';
const REFUND_COLOR = '#f59e0b';

/** Invoiced less refunded per month, the last twelve; a sentence and a hidden table say the same in words. */
export function RevenueChart({ months }: { months: AdminStatsResponse['revenueByMonth'] }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const money = (amount: number) => formatMoney(amount, language);
  const trend = revenueTrend(months);
  const running = months.at(-1);
  const soFar = running ? t('admin.revenue.soFar', { month: formatMonth(running.month, language), net: money(running.net) }) : '';
  const summary = trend
    ? trend.change === null
      ? t('admin.revenue.summaryNoRatio', { month: formatMonth(trend.month, language), net: money(trend.net) })
      : t('admin.revenue.summary', {
          month: formatMonth(trend.month, language),
          net: money(trend.net),
          change: formatChange(trend.change, language),
        })
    : t('admin.revenue.summaryShort');

  return (
    <Panel id="admin-revenue-title" title={t('admin.revenue.title')} description={t('admin.revenue.description')} className="lg:col-span-2">
      <figure>
        <div aria-hidden="true" className="text-ink-muted">
          <BarChart
            responsive
            accessibilityLayer={false}
            data={months}
            style={{ width: '100%', height: 220 }}
            margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
          >
            <CartesianGrid stroke="currentColor" strokeOpacity={0.15} vertical={false} />
            <XAxis
              dataKey="month"
              tickFormatter={(month: string) => formatMonth(month, language)}
              tick={axisTick}
              stroke="currentColor"
              strokeOpacity={0.3}
              minTickGap={16}
            />
            <YAxis tickFormatter={money} tick={axisTick} stroke="currentColor" strokeOpacity={0.3} width={64} />
            <Tooltip
              {...tooltipStyle}
              cursor={{ fill: 'currentColor', fillOpacity: 0.08 }}
              labelFormatter={(month) => formatMonth(String(month), language)}
              formatter={(amount, key) => [money(Number(amount)), t(`admin.revenue.${key === 'refunded' ? 'refunded' : 'net'}`)]}
            />
            <Bar dataKey="net" fill={NET_COLOR} radius={[4, 4, 0, 0]} />
            <Bar dataKey="refunded" fill={REFUND_COLOR} radius={[4, 4, 0, 0]} />
          </BarChart>
        </div>
        <figcaption className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-ink-muted">
          <span className="inline-flex items-center gap-1.5">
            <span aria-hidden="true" className="size-2.5 rounded-full" style={{ background: NET_COLOR }} />
            {t('admin.revenue.net')}
          </span>
          <span className="inline-flex items-center gap-1.5">
            <span aria-hidden="true" className="size-2.5 rounded-full" style={{ background: REFUND_COLOR }} />
            {t('admin.revenue.refunded')}
          </span>
          <span className="basis-full">
            {soFar} {summary}
          </span>
        </figcaption>
      </figure>
      <div className="sr-only">
        <table>
          <caption>{t('admin.revenue.tableCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('admin.revenue.month')}</th>
              <th scope="col">{t('admin.revenue.invoiced')}</th>
              <th scope="col">{t('admin.revenue.refunded')}</th>
              <th scope="col">{t('admin.revenue.net')}</th>
            </tr>
          </thead>
          <tbody>
            {months.map((row) => (
              <tr key={row.month}>
                <th scope="row">{formatMonth(row.month, language)}</th>
                <td>{money(row.invoiced)}</td>
                <td>{money(row.refunded)}</td>
                <td>{money(row.net)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
