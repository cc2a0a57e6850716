import type { AppPassword } from '@cloudvault/contract/app-passwords';
import { TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { useRevokeAppPassword } from '../api/app-passwords';
import { notify } from '../../../lib/notify';

/** Asks before revoking: every device using the app password loses access at once. */
export function RevokeAppPasswordModal({
  appPassword,
  onClose,
  onRevoked,
}: {
  appPassword: AppPassword | null;
  onClose: () => void;
  onRevoked: () => void;
}) {
  const { t } = useTranslation();
  const revoke = useRevokeAppPassword();
  const confirm = async () => {
    if (!appPassword) return;
    try {
      await revoke.mutateAsync(appPassword.id);
      notify.success('appPasswords.revoke.done', { values: { name: appPassword.name } });
      onRevoked();
    } catch {
      notify.error('appPasswords.revoke.failed');
    }
  };
  return (
    <Modal
      open={appPassword !== null}
      onClose={onClose}
      busy={revoke.isPending}
      size="sm"
      title={t('appPasswords.revoke.title', { name: appPassword?.name ?? '' })}
      description={t('appPasswords.revoke.description')}
      icon={
        <span className="grid size-10 place-items-center rounded-full bg-danger-soft text-danger">
          <TriangleAlert aria-hidden="true" className="size-5" />
        </span>
      }
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={revoke.isPending}>
            {t('ui.cancel')}
          </Button>
          <Button variant="danger" onClick={() => void confirm()} loading={revoke.isPending}>
            {t('appPasswords.revoke.confirm')}
          </Button>
        </>
      }
    />
  );
}
