import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';

export function ProfilePage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle title={t('profile.pageTitle')} />
      <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">{t('profile.title')}</h1>
    </>
  );
}
