import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';

export function SettingsPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle title={t('settings.pageTitle')} />
      <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">{t('settings.title')}</h1>
    </>
  );
}
