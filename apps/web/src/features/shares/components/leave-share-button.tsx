import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ShareOwner } from '@cloudvault/contract/shares';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { notify } from '../../../lib/notify';
import { useLeaveShare } from '../api/leave-share';
import { ownerName } from '../public-links';

interface LeaveShareButtonProps {
  shareId: string;
  /** The shared item's name. */
  name: string;
  owner: ShareOwner;
}

/**
 * 'Leave' on an item shared with the user, after a confirmation: the share ends for them
 * alone (DELETE /api/shared-with-me/:shareId), the owner keeps the item.
 */
export function LeaveShareButton({ shareId, name, owner }: LeaveShareButtonProps) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const leave = useLeaveShare();
  // The promise, not mutate's callbacks: the row (and this button) leaves the list as the share ends, and the toast must still come.
  const onLeave = () =>
    leave.mutateAsync(shareId).then(
      () => {
        setConfirming(false);
        notify.success('shares.withMe.left', { values: { name } });
      },
      (error: unknown) => notify.error('shares.withMe.leaveFailed', { error }),
    );

  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setConfirming(true)} aria-label={t('shares.withMe.leaveNamed', { name })}>
        <LogOut aria-hidden="true" className="size-4" />
        <span className="hidden sm:inline">{t('shares.withMe.leave')}</span>
      </Button>
      <Modal
        open={confirming}
        onClose={() => setConfirming(false)}
        busy={leave.isPending}
        size="sm"
        title={t('shares.withMe.leaveTitle', { name })}
        description={t('shares.withMe.leaveBody', { owner: ownerName(owner) })}
        icon={
          <span className="grid size-10 place-items-center rounded-xl bg-danger-soft text-danger">
            <LogOut aria-hidden="true" className="size-5" />
          </span>
        }
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)} disabled={leave.isPending}>
              {t('ui.cancel')}
            </Button>
            <Button variant="danger" loading={leave.isPending} onClick={onLeave}>
              {t('shares.withMe.leave')}
            </Button>
          </>
        }
      />
    </>
  );
}
