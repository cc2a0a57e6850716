import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { serverErrorMessage } from '../../../lib/api-client';
import { useDisableTwoFactor } from '../api/two-factor';
import { CodeField } from './code-field';

/** Turning two-factor sign-in off takes a current code or a recovery code. */
export function DisableTwoFactorModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const disable = useDisableTwoFactor();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (disable.isPending) return;
    if (!code.trim()) return setError(t('settings.twoFactor.codeRequired'));
    try {
      await disable.mutateAsync(code.trim());
      toast.success(t('settings.twoFactor.disabled'));
      onClose();
    } catch (caught) {
      setError(serverErrorMessage(caught) ?? t('settings.twoFactor.disableFailed'));
    }
  };

  return (
    <Modal
      open
      onClose={onClose}
      busy={disable.isPending}
      title={t('settings.twoFactor.disableTitle')}
      description={t('settings.twoFactor.disableDescription')}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={disable.isPending}>
            {t('ui.cancel')}
          </Button>
          <Button type="submit" form="disable-two-factor" variant="danger" loading={disable.isPending}>
            {t('settings.twoFactor.disableSubmit')}
          </Button>
        </>
      }
    >
      <form id="disable-two-factor" noValidate onSubmit={onSubmit}>
        <CodeField
          allowRecovery
          value={code}
          onChange={(value) => {
            setCode(value);
            setError(undefined);
          }}
          error={error}
        />
      </form>
    </Modal>
  );
}
