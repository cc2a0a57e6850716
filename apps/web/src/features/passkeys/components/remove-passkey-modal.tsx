import type { Passkey } from '@cloudvault/contract/passkeys';
import { TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { Modal } from '../../../components/ui/modal';
import { serverErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useRemovePasskey } from '../api/passkeys';

/**
 * Asks before removing a passkey. The server refuses to remove the account's last way to
 * sign in (no password, no single sign-on, no other passkey): its reason stays in the dialog.
 */
export function RemovePasskeyModal({
  passkey,
  onClose,
  onRemoved,
}: {
  passkey: Passkey | null;
  onClose: () => void;
  onRemoved: () => void;
}) {
  const { t } = useTranslation();
  const remove = useRemovePasskey();
  const [refusal, setRefusal] = useState<string | undefined>();
  const close = () => {
    setRefusal(undefined);
    onClose();
  };
  const confirm = async () => {
    if (!passkey) return;
    try {
      await remove.mutateAsync(passkey.id);
      notify.success('passkeys.remove.done', { values: { name: passkey.name } });
      setRefusal(undefined);
      onRemoved();
    } catch (error) {
      setRefusal(serverErrorMessage(error) ?? t('passkeys.remove.failed'));
    }
  };
  return (
    <Modal
      open={passkey !== null}
      onClose={close}
      busy={remove.isPending}
      size="sm"
      title={t('passkeys.remove.title', { name: passkey?.name ?? '' })}
      description={t('passkeys.remove.description')}
      icon={
        <span className="grid size-10 place-items-center rounded-full bg-danger-soft text-danger">
          <TriangleAlert aria-hidden="true" className="size-5" />
        </span>
      }
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={remove.isPending}>
            {t('ui.cancel')}
          </Button>
          <Button variant="danger" onClick={() => void confirm()} loading={remove.isPending}>
            {t('passkeys.remove.confirm')}
          </Button>
        </>
      }
    >
      {refusal && <FormAlert>{refusal}</FormAlert>}
    </Modal>
  );
}
