import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';

export function SubscriptionPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle title={t('subscription.pageTitle')} />
      <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">{t('subscription.title')}</h1>
    </>
  );
}
