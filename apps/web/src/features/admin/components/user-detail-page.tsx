import { ArrowLeft, Ban, CalendarClock, CalendarX, KeyRound, MailCheck, ShieldCheck, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { AdminUserDetailResponse } from '@cloudvault/contract/admin';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { PageTitle } from '../../../components/ui/page-title';
import { formatDay } from '../../../lib/dates';
import { useAdminUser } from '../api/get-user';
import { AuditFeed } from './audit-feed';
import { ErrorState, LoadingState } from './page-states';
import { UserActionDialogs, type UserAction } from './user-action-dialogs';
import { PlanBadge, UserStatusBadge } from './user-badges';
import { UserPlanSection } from './user-plan-section';
import { UserUsageSection } from './user-usage-section';

function UserActions({ detail, onChoose }: { detail: AdminUserDetailResponse; onChoose: (action: UserAction) => void }) {
  const { t } = useTranslation();
  const { user, complimentaryPlan } = detail;
  const suspended = user.status === 'suspended';
  return (
    <section aria-labelledby="admin-user-actions-title" className="rounded-card border border-line bg-surface p-4 shadow-card sm:p-5">
      <h2 id="admin-user-actions-title" className="sr-only">
        {t('admin.detail.actions')}
      </h2>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {suspended ? (
          <Button variant="secondary" onClick={() => onChoose('unsuspend')}>
            <ShieldCheck aria-hidden="true" className="size-4" />
            {t('admin.actions.unsuspend.button')}
          </Button>
        ) : (
          <Button variant="secondary" onClick={() => onChoose('suspend')}>
            <Ban aria-hidden="true" className="size-4" />
            {t('admin.actions.suspend.button')}
          </Button>
        )}
        {/* A paid subscription is the user's own: only a plan granted by hand can be ended here. */}
        {complimentaryPlan ? (
          <Button variant="secondary" onClick={() => onChoose('endPlan')}>
            <CalendarX aria-hidden="true" className="size-4" />
            {t('admin.actions.endPlan.button')}
          </Button>
        ) : (
          <Button variant="secondary" onClick={() => onChoose('grantPlan')}>
            <CalendarClock aria-hidden="true" className="size-4" />
            {t('admin.actions.grantPlan.button')}
          </Button>
        )}
        {!user.emailVerified && (
          <Button variant="secondary" onClick={() => onChoose('resendVerification')}>
            <MailCheck aria-hidden="true" className="size-4" />
            {t('admin.actions.resendVerification.button')}
          </Button>
        )}
        <Button variant="secondary" onClick={() => onChoose('sendPasswordReset')}>
          <KeyRound aria-hidden="true" className="size-4" />
          {t('admin.actions.sendPasswordReset.button')}
        </Button>
        <Button variant="ghost" onClick={() => onChoose('delete')} className="text-danger! hover:bg-danger-soft">
          <Trash2 aria-hidden="true" className="size-4" />
          {t('admin.actions.delete.button')}
        </Button>
      </div>
    </section>
  );
}

/** /admin/users/:userId: one account's plan, billing, usage, devices and audit, with the operator's actions. */
export function UserDetailPage() {
  const { t, i18n } = useTranslation();
  const { userId = '' } = useParams();
  const query = useAdminUser(userId);
  const [action, setAction] = useState<UserAction | null>(null);

  const back = (
    <Link
      to="/admin/users"
      className="focus-ring inline-flex items-center gap-1.5 self-start rounded-sm text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
    >
      <ArrowLeft aria-hidden="true" className="size-4" />
      {t('admin.detail.back')}
    </Link>
  );

  if (!query.data) {
    return (
      <>
        <PageTitle title={t('admin.detail.pageTitle')} />
        {back}
        <h1 className="sr-only">{t('admin.detail.pageTitle')}</h1>
        {query.isError ? <ErrorState error={query.error} onRetry={() => void query.refetch()} /> : <LoadingState />}
      </>
    );
  }

  const detail = query.data;
  const { user } = detail;
  const name = `${user.firstName} ${user.lastName}`;
  return (
    <>
      <PageTitle title={name} />
      {back}
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold tracking-tight break-words text-ink sm:text-3xl">{name}</h1>
        <p className="text-sm break-all text-ink-muted">{user.email}</p>
        <div className="flex flex-wrap items-center gap-1.5">
          <PlanBadge user={user} />
          <UserStatusBadge status={user.status} />
          <Badge tone={user.emailVerified ? 'success' : 'warning'}>
            {t(user.emailVerified ? 'admin.detail.verified' : 'admin.detail.unverified')}
          </Badge>
          {user.role === 'admin' && <Badge tone="brand">{t('admin.detail.operator')}</Badge>}
        </div>
        {user.suspendedAt && (
          <p className="text-sm text-danger">{t('admin.detail.suspendedSince', { date: formatDay(user.suspendedAt, i18n.language) })}</p>
        )}
      </div>
      {/* Operators act on users only: the server refuses any action on an operator's account. */}
      {user.role === 'admin' ? (
        <p className="rounded-card border border-line bg-surface p-4 text-sm text-ink-muted shadow-card sm:p-5">
          {t('admin.detail.operatorNoActions')}
        </p>
      ) : (
        <UserActions detail={detail} onChoose={setAction} />
      )}
      <div className="grid gap-4 lg:grid-cols-2 lg:items-start">
        <UserPlanSection detail={detail} />
        <div className="flex min-w-0 flex-col gap-4">
          <UserUsageSection detail={detail} />
        </div>
      </div>
      <section aria-labelledby="admin-user-audit-title" className="flex flex-col gap-3">
        <h2 id="admin-user-audit-title" className="text-lg font-semibold text-ink">
          {t('admin.detail.audit')}
        </h2>
        <AuditFeed targetId={user.id} />
      </section>
      <UserActionDialogs user={user} action={action} onClose={() => setAction(null)} />
    </>
  );
}
