import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';

export function PricingPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle title={t('pricing.pageTitle')} />
      <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">{t('pricing.title')}</h1>
    </>
  );
}
