import { ArrowDownCircle, ArrowUpCircle, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Plan } from '@cloudvault/contract/plans';
import type { PlanChangePreview } from '@cloudvault/contract/subscriptions';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { formatDay } from '../../../lib/dates';
import { formatPrice } from '../../../lib/money';
import { usePlanChangePreview } from '../api/preview-plan-change';
import type { PlanActionBusy } from '../hooks/use-plan-actions';

interface PlanChangeConfirmModalProps {
  /** The plan moved to; null while closed. */
  plan: Plan | null;
  /** Upgrade or downgrade, for the title and icon. */
  direction: 'upgrade' | 'downgrade';
  /** When the current period ends: the renewal date, or the end of a subscription that will not renew. */
  periodEnd: string;
  busy: PlanActionBusy;
  onConfirm: (prorationDate: string) => void;
  onClose: () => void;
}

/** An amount in the preview's currency, always with cents ('$6.50'). */
function formatMoney(amount: number, currency: string, language: string): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency: currency.toUpperCase() }).format(amount);
}

/**
 * The confirmation of a move between paid plans (issue 36): the new price, what is charged or
 * credited now and for how many days, and the next renewal, from the server's preview; only
 * Confirm changes the plan, prorated as of that preview.
 */
export function PlanChangeConfirmModal({ plan, direction, periodEnd, busy, onConfirm, onClose }: PlanChangeConfirmModalProps) {
  const { t, i18n } = useTranslation();
  const preview = usePlanChangePreview(plan?.id ?? null);
  const processing = busy?.kind === 'plan';
  const Icon = direction === 'upgrade' ? ArrowUpCircle : ArrowDownCircle;
  const name = plan?.name ?? '';

  let body;
  if (preview.data) body = <PreviewFigures preview={preview.data} periodEnd={periodEnd} language={i18n.language} />;
  else if (preview.isError)
    body = (
      <div role="alert" className="flex flex-col items-start gap-3 text-sm text-ink">
        <p className="flex items-center gap-2">
          <TriangleAlert aria-hidden="true" className="size-4 text-danger" />
          {t('subscription.confirmChange.loadFailed')}
        </p>
        <Button variant="secondary" size="sm" onClick={() => void preview.refetch()}>
          {t('subscription.confirmChange.retry')}
        </Button>
      </div>
    );
  else
    body = (
      <p role="status" className="flex items-center gap-2 text-sm text-ink-muted">
        <Spinner className="size-4 text-brand-600 dark:text-brand-400" />
        {t('subscription.confirmChange.loading')}
      </p>
    );

  return (
    <Modal
      open={plan !== null}
      onClose={onClose}
      busy={processing}
      size="md"
      title={t(direction === 'upgrade' ? 'subscription.confirmChange.upgradeTitle' : 'subscription.confirmChange.downgradeTitle', {
        plan: name,
      })}
      description={t('subscription.confirmChange.description')}
      icon={
        <span className="grid size-10 place-items-center rounded-xl bg-brand-50 text-brand-600 dark:bg-brand-950 dark:text-brand-300">
          <Icon aria-hidden="true" className="size-5" />
        </span>
      }
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={processing}>
            {t('subscription.confirmChange.cancel')}
          </Button>
          <Button
            loading={processing}
            disabled={!preview.data || preview.isFetching}
            onClick={() => preview.data && onConfirm(preview.data.prorationDate)}
          >
            {processing ? t('subscription.confirmChange.processing') : t('subscription.confirmChange.confirm')}
          </Button>
        </>
      }
    >
      {body}
    </Modal>
  );
}

function PreviewFigures({ preview, periodEnd, language }: { preview: PlanChangePreview; periodEnd: string; language: string }) {
  const { t } = useTranslation();
  const money = (amount: number) => formatMoney(amount, preview.currency, language);
  const prorated = t('subscription.confirmChange.prorated', { count: preview.daysLeft });

  let now;
  if (preview.amountNow > 0)
    now = (
      <Row label={t('subscription.confirmChange.chargedNow')}>
        <span className="font-semibold text-ink">{money(preview.amountNow)}</span> ({prorated})
      </Row>
    );
  else if (preview.amountNow < 0)
    now = (
      <Row label={t('subscription.confirmChange.creditedNow')}>
        <span className="font-semibold text-ink">{money(-preview.amountNow)}</span> ({prorated})
        <span className="mt-1 block text-ink-muted">{t('subscription.confirmChange.creditNote')}</span>
      </Row>
    );

  return (
    <dl aria-label={t('subscription.confirmChange.summary')} className="divide-y divide-line rounded-control border border-line text-sm">
      <Row label={t('subscription.confirmChange.newPrice')}>
        <span className="font-semibold text-ink">{formatPrice(preview.price, language)}</span>
        {t('common.perMonth')}
      </Row>
      {now ?? <Row label={t('subscription.confirmChange.chargedNow')}>{t('subscription.confirmChange.nothingNow')}</Row>}
      <Row label={t('subscription.confirmChange.nextRenewal')}>
        {preview.nextRenewal
          ? t('subscription.confirmChange.renewalValue', {
              date: formatDay(preview.nextRenewal.date, language),
              amount: money(preview.nextRenewal.amount),
            })
          : t('subscription.confirmChange.noRenewal', { date: formatDay(periodEnd, language) })}
      </Row>
    </dl>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 px-4 py-3 sm:flex-row sm:justify-between sm:gap-4">
      <dt className="text-ink-muted">{label}</dt>
      <dd className="text-ink sm:text-right">{children}</dd>
    </div>
  );
}
