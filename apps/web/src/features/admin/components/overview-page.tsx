import { Ban, CreditCard, Files, HardDrive, Minus, ReceiptText, TrendingDown, TrendingUp, TriangleAlert, Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import { useFormatSize } from '../../../lib/format-size';
import { useAdminStats } from '../api/get-stats';
import { formatChange, formatCount, formatMoney, formatMonth, revenueTrend, storageGrowth, trendDirection } from '../figures';
import { HealthPanel } from './health-panel';
import { LargestAccounts } from './largest-accounts';
import { AdminHeading, ErrorState, LoadingState } from './page-states';
import { RevenueChart } from './revenue-chart';
import { StatCard } from './stat-card';
import { StorageGrowthChart } from './storage-growth-chart';

const trendIcons = { up: TrendingUp, down: TrendingDown, flat: Minus } as const;

/** /admin: the service at a glance — accounts, money, storage, and whether the parts are healthy. */
export function OverviewPage() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const formatSize = useFormatSize();
  const stats = useAdminStats();
  const count = (value: number) => formatCount(value, language);

  let body;
  if (stats.data) {
    const data = stats.data;
    const paying = data.activeSubscriptions.PRO + data.activeSubscriptions.PREMIUM;
    const complimentary = data.complimentarySubscriptions.PRO + data.complimentarySubscriptions.PREMIUM;
    const trend = revenueTrend(data.revenueByMonth);
    const direction = trendDirection(trend?.change ?? null);
    const TrendIcon = trendIcons[direction];
    const growth = storageGrowth(data.storageHistory);
    body = (
      <>
        <dl className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
          <StatCard
            icon={Users}
            label={t('admin.stats.users')}
            value={count(data.users)}
            detail={t('admin.stats.newUsers', { week: count(data.newUsers.week), month: count(data.newUsers.month) })}
          />
          <StatCard
            icon={CreditCard}
            label={t('admin.stats.paying')}
            value={count(paying)}
            detail={
              <>
                {t('admin.stats.byPlan', { pro: count(data.activeSubscriptions.PRO), premium: count(data.activeSubscriptions.PREMIUM) })}
                {complimentary > 0 && <span className="block">{t('admin.stats.complimentary', { count: complimentary })}</span>}
              </>
            }
          />
          <StatCard
            icon={TrendIcon}
            label={t('admin.stats.mrr')}
            value={formatMoney(data.mrr, language)}
            detail={
              trend && trend.change !== null ? (
                <span className={direction === 'up' ? 'text-success' : direction === 'down' ? 'text-danger' : undefined}>
                  {t('admin.stats.trend', { change: formatChange(trend.change, language), month: formatMonth(trend.month, language) })}
                </span>
              ) : (
                t('admin.stats.noTrend')
              )
            }
          />
          <StatCard
            icon={HardDrive}
            label={t('admin.stats.storage')}
            value={formatSize(data.storageUsed)}
            detail={
              growth
                ? t('admin.stats.storageGrowth', {
                    growth: `${growth.bytes < 0 ? '−' : '+'}${formatSize(Math.abs(growth.bytes))}`,
                    count: growth.days,
                  })
                : t('admin.stats.noGrowth')
            }
          />
          <StatCard
            icon={TriangleAlert}
            tone={data.pastDue > 0 ? 'warning' : 'neutral'}
            label={t('admin.stats.pastDue')}
            value={count(data.pastDue)}
            detail={t('admin.stats.pastDueDetail')}
          />
          <StatCard
            icon={ReceiptText}
            label={t('admin.stats.refunds')}
            value={count(data.refunds.count)}
            detail={t('admin.stats.refundsDetail', { amount: formatMoney(data.refunds.amount, language) })}
          />
          <StatCard icon={Files} label={t('admin.stats.filesTitle')} value={count(data.files)} />
          <StatCard icon={Ban} label={t('admin.stats.suspended')} value={count(data.suspendedUsers)} />
        </dl>
        <div className="grid gap-4 lg:grid-cols-3">
          <RevenueChart months={data.revenueByMonth} />
          <HealthPanel health={data.health} />
          <StorageGrowthChart history={data.storageHistory} />
          <LargestAccounts accounts={data.largestAccounts} />
        </div>
      </>
    );
  } else if (stats.isError) {
    body = <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />;
  } else {
    body = <LoadingState />;
  }

  return (
    <>
      <PageTitle title={t('admin.overview.pageTitle')} />
      <AdminHeading title={t('admin.overview.title')} subtitle={t('admin.overview.subtitle')} />
      {body}
    </>
  );
}
