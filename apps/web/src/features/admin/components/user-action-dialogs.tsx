import { Ban, CalendarClock, KeyRound, MailCheck, ShieldCheck, Trash2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { AdminUser } from '@cloudvault/contract/admin';
import type { PlanId } from '@cloudvault/contract/plans';
import { ProviderConfirmation } from '../../../components/ui/provider-confirmation';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { useProviderConfirmation } from '../../../hooks/use-provider-confirmation';
import { formatDay } from '../../../lib/dates';
import { useAdminUserActions } from '../api/user-actions';
import { confirmsEmail, defaultGrantDay, firstGrantableDay, grantEndsAt, isLaterDay, utcDay } from '../plan-grant';
import { ActionDialog } from './action-dialog';

export type UserAction = 'suspend' | 'unsuspend' | 'grantPlan' | 'endPlan' | 'resendVerification' | 'sendPasswordReset' | 'delete';

const GRANTABLE: ReadonlyArray<Exclude<PlanId, 'FREE'>> = ['PRO', 'PREMIUM'];

function DialogIcon({ tone, children }: { tone: 'brand' | 'danger'; children: ReactNode }) {
  return (
    <span
      className={
        tone === 'danger'
          ? 'grid size-10 place-items-center rounded-full bg-danger-soft text-danger'
          : 'grid size-10 place-items-center rounded-full bg-brand-50 text-brand-700 dark:bg-brand-950 dark:text-brand-300'
      }
    >
      {children}
    </span>
  );
}

/** The dialog of the action chosen on the user detail (one at a time); null shows none. */
export function UserActionDialogs({ user, action, onClose }: { user: AdminUser; action: UserAction | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const actions = useAdminUserActions(user.id);
  const name = `${user.firstName} ${user.lastName}`;
  const common = { onClose, open: true } as const;

  // Grant plan's own fields.
  const [plan, setPlan] = useState<Exclude<PlanId, 'FREE'>>('PRO');
  const [endDay, setEndDay] = useState(() => defaultGrantDay(new Date()));
  const [endDayError, setEndDayError] = useState<string | undefined>();
  // Delete's own fields: the address typed back, and the operator's own password.
  const [typedEmail, setTypedEmail] = useState('');
  const [typedEmailError, setTypedEmailError] = useState<string | undefined>();
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();
  // An operator without a password (single sign-on) confirms at the provider instead.
  const provider = useProviderConfirmation();

  switch (action) {
    case null:
      return null;
    case 'suspend':
    case 'unsuspend': {
      const suspend = action === 'suspend';
      return (
        <ActionDialog
          {...common}
          title={t(`admin.actions.${action}.title`)}
          description={t(`admin.actions.${action}.description`, { name })}
          confirmLabel={t(`admin.actions.${action}.confirm`)}
          tone={suspend ? 'danger' : 'primary'}
          icon={
            <DialogIcon tone={suspend ? 'danger' : 'brand'}>
              {suspend ? <Ban aria-hidden="true" className="size-5" /> : <ShieldCheck aria-hidden="true" className="size-5" />}
            </DialogIcon>
          }
          reason="required"
          busy={actions.update.isPending}
          onConfirm={(reason) => actions.update.mutateAsync({ suspended: suspend, reason })}
          success={{ key: `admin.actions.${action}.done`, values: { name } }}
        />
      );
    }
    case 'grantPlan': {
      const today = utcDay(new Date());
      return (
        <ActionDialog
          {...common}
          title={t('admin.actions.grantPlan.title')}
          description={t('admin.actions.grantPlan.description', { name })}
          confirmLabel={t('admin.actions.grantPlan.confirm')}
          icon={
            <DialogIcon tone="brand">
              <CalendarClock aria-hidden="true" className="size-5" />
            </DialogIcon>
          }
          reason="required"
          busy={actions.update.isPending}
          validate={() => {
            const valid = isLaterDay(endDay, today);
            setEndDayError(valid ? undefined : t('admin.actions.grantPlan.endInFuture'));
            return valid;
          }}
          onConfirm={(reason) => actions.update.mutateAsync({ plan, planEndsAt: grantEndsAt(endDay), reason })}
          success={{
            key: 'admin.actions.grantPlan.done',
            // The plan's name and the day are put in the language of the moment of the grant.
            values: { plan: t(`common.plans.${plan}`), date: formatDay(grantEndsAt(endDay), i18n.language) },
          }}
        >
          <SelectField
            label={t('admin.actions.grantPlan.plan')}
            value={plan}
            options={GRANTABLE.map((id) => ({ value: id, label: t(`common.plans.${id}`) }))}
            onChange={setPlan}
          />
          <TextField
            label={t('admin.actions.grantPlan.endDate')}
            hint={t('admin.actions.grantPlan.endDateHint')}
            type="date"
            min={firstGrantableDay(new Date())}
            required
            value={endDay}
            onChange={(event) => {
              setEndDay(event.target.value);
              setEndDayError(undefined);
            }}
            error={endDayError}
          />
        </ActionDialog>
      );
    }
    case 'endPlan':
      return (
        <ActionDialog
          {...common}
          title={t('admin.actions.endPlan.title')}
          description={t('admin.actions.endPlan.description', { name, plan: t(`common.plans.${user.plan}`) })}
          confirmLabel={t('admin.actions.endPlan.confirm')}
          tone="danger"
          icon={
            <DialogIcon tone="danger">
              <CalendarClock aria-hidden="true" className="size-5" />
            </DialogIcon>
          }
          reason="required"
          busy={actions.update.isPending}
          onConfirm={(reason) => actions.update.mutateAsync({ plan: 'FREE', reason })}
          success={{ key: 'admin.actions.endPlan.done', values: { name } }}
        />
      );
    case 'resendVerification':
    case 'sendPasswordReset':
      return (
        <ActionDialog
          {...common}
          title={t(`admin.actions.${action}.title`)}
          description={t(`admin.actions.${action}.description`, { email: user.email })}
          confirmLabel={t(`admin.actions.${action}.confirm`)}
          icon={
            <DialogIcon tone="brand">
              {action === 'resendVerification' ? (
                <MailCheck aria-hidden="true" className="size-5" />
              ) : (
                <KeyRound aria-hidden="true" className="size-5" />
              )}
            </DialogIcon>
          }
          reason="optional"
          busy={actions.sendMail.isPending}
          onConfirm={(reason) =>
            actions.sendMail.mutateAsync({
              mail: action === 'resendVerification' ? 'resend-verification' : 'send-password-reset',
              reason: reason || undefined,
            })
          }
          success={{ key: `admin.actions.${action}.done`, values: { email: user.email } }}
        />
      );
    case 'delete':
      return (
        <ActionDialog
          {...common}
          onClose={() => {
            setTypedEmail('');
            setTypedEmailError(undefined);
            setPassword('');
            setPasswordError(undefined);
            onClose();
          }}
          title={t('admin.actions.delete.title')}
          description={t('admin.actions.delete.description', { name })}
          confirmLabel={t('admin.actions.delete.confirm')}
          tone="danger"
          icon={
            <DialogIcon tone="danger">
              <Trash2 aria-hidden="true" className="size-5" />
            </DialogIcon>
          }
          reason="required"
          busy={actions.remove.isPending}
          validate={() => {
            const emailMatches = confirmsEmail(typedEmail, user.email);
            setTypedEmailError(emailMatches ? undefined : t('admin.actions.delete.mismatch'));
            const passwordGiven = password !== '' || provider !== null;
            setPasswordError(passwordGiven ? undefined : t('admin.actions.delete.passwordRequired'));
            return emailMatches && passwordGiven;
          }}
          onConfirm={async (reason) => {
            await actions.remove.mutateAsync({ confirmEmail: typedEmail.trim(), reason, password });
            void navigate('/admin/users', { replace: true });
          }}
          success={{ key: 'admin.actions.delete.done', values: { email: user.email } }}
        >
          <TextField
            label={t('admin.actions.delete.typeEmail', { email: user.email })}
            name="confirmEmail"
            type="email"
            autoComplete="off"
            spellCheck={false}
            value={typedEmail}
            onChange={(event) => {
              setTypedEmail(event.target.value);
              setTypedEmailError(undefined);
            }}
            error={typedEmailError}
          />
          {provider ? (
            <ProviderConfirmation label={provider.label} error={passwordError} />
          ) : (
            <TextField
              label={t('admin.actions.delete.password')}
              hint={t('admin.actions.delete.passwordHint')}
              name="password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => {
                setPassword(event.target.value);
                setPasswordError(undefined);
              }}
              error={passwordError}
            />
          )}
        </ActionDialog>
      );
  }
}
