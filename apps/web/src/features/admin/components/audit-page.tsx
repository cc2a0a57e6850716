import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import { AuditFeed } from './audit-feed';
import { AdminHeading } from './page-states';

/** /admin/audit: every operator action, newest first. */
export function AuditPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle title={t('admin.audit.pageTitle')} />
      <AdminHeading title={t('admin.audit.title')} subtitle={t('admin.audit.subtitle')} />
      <AuditFeed targetId={null} />
    </>
  );
}
