import { CircleX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { formatDay } from '../../../lib/dates';
import { useCancelSubscription } from '../api/cancel-subscription';
import { notify } from '../../../lib/notify';

interface CancelSubscriptionModalProps {
  open: boolean;
  onClose: () => void;
  planName: string;
  /** When the paid period ends (access lasts until then). */
  periodEnd: string | undefined;
}

/** 'Cancel Subscription': premium features stay until the end of the billing period. */
export function CancelSubscriptionModal({ open, onClose, planName, periodEnd }: CancelSubscriptionModalProps) {
  const { t, i18n } = useTranslation();
  const cancel = useCancelSubscription();

  const onConfirm = () =>
    cancel.mutate(undefined, {
      // The subscription has been read again by now (the mutation waits for it). A
      // cancellation in the first month is refunded and ends the subscription at once.
      onSuccess: ({ subscription }) => {
        notify.success(subscription.status === 'canceled' ? 'subscription.toast.canceledRefunded' : 'subscription.toast.canceled');
        onClose();
      },
      onError: (error) => notify.error('subscription.toast.cancelFailed', { error }),
    });

  return (
    <Modal
      open={open}
      onClose={onClose}
      busy={cancel.isPending}
      size="sm"
      title={t('subscription.cancelModal.title')}
      description={`${
        periodEnd
          ? t('subscription.cancelModal.message', { date: formatDay(periodEnd, i18n.language), plan: planName })
          : t('subscription.cancelModal.messageNoDate', { plan: planName })
      } ${t('subscription.cancelModal.refundNote')}`}
      icon={
        <span className="grid size-10 place-items-center rounded-xl bg-danger-soft text-danger">
          <CircleX aria-hidden="true" className="size-5" />
        </span>
      }
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={cancel.isPending}>
            {t('subscription.cancelModal.keep')}
          </Button>
          <Button variant="danger" loading={cancel.isPending} onClick={onConfirm}>
            {cancel.isPending ? t('subscription.cancelModal.confirming') : t('subscription.cancelModal.confirm')}
          </Button>
        </>
      }
    />
  );
}
