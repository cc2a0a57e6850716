import { Gift } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { AdminUser } from '@cloudvault/contract/admin';
import { Badge } from '../../../components/ui/badge';

/** Active or Suspended. */
export function UserStatusBadge({ status }: { status: AdminUser['status'] }) {
  const { t } = useTranslation();
  return <Badge tone={status === 'active' ? 'success' : 'danger'}>{t(`admin.status.${status}`)}</Badge>;
}

/** The plan, marked when an operator granted it free of charge. */
export function PlanBadge({ user }: { user: Pick<AdminUser, 'plan' | 'complimentary'> }) {
  const { t } = useTranslation();
  return (
    <Badge tone={user.plan === 'FREE' ? 'neutral' : 'brand'} className="whitespace-nowrap">
      {t(`common.plans.${user.plan}`)}
      {user.complimentary && (
        <>
          <Gift aria-hidden="true" className="size-3.5" />
          <span className="sr-only">({t('admin.plan.complimentary')})</span>
        </>
      )}
    </Badge>
  );
}
