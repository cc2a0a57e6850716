import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import { useSession } from '../../auth/hooks/use-session';
import { dayPart } from '../greeting';

export function DashboardPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const firstName = user?.firstName ?? '';

  return (
    <>
      <PageTitle title={t('dashboard.pageTitle')} />
      <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">
        {t(`dashboard.greeting.${dayPart(new Date())}`, { firstName })}
      </h1>
    </>
  );
}
