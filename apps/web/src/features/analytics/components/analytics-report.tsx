import { TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useAnalytics } from '../api/get-analytics';
import { CategoryChart } from './category-chart';
import { LargestItems } from './largest-items';
import { ShareDownloadsChart } from './share-downloads-chart';
import { StorageHistoryChart } from './storage-history-chart';

/** Business: the four parts of the analytics report. */
export function AnalyticsReport() {
  const { t } = useTranslation();
  const analytics = useAnalytics();

  if (analytics.isPending) {
    return (
      <div className="flex justify-center py-10">
        <Spinner label={t('analytics.loading')} className="size-6 text-brand-600 dark:text-brand-400" />
      </div>
    );
  }
  if (analytics.isError) {
    return (
      <div role="alert" className="flex flex-col items-center gap-3 rounded-card border border-line bg-surface py-8 text-center">
        <TriangleAlert aria-hidden="true" className="size-6 text-danger" />
        <p className="text-sm text-ink">{t('analytics.loadFailed')}</p>
        <Button size="sm" variant="secondary" onClick={() => void analytics.refetch()}>
          {t('analytics.retry')}
        </Button>
      </div>
    );
  }
  const report = analytics.data;
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <StorageHistoryChart history={report.storageHistory} />
      <CategoryChart categories={report.byCategory} />
      <ShareDownloadsChart shares={report.shareDownloads} />
      <LargestItems files={report.largestFiles} folders={report.largestFolders} />
    </div>
  );
}
