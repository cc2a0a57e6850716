import { PASSKEY_NAME_MAX_LENGTH } from '@cloudvault/contract/passkey-limits';
import type { Passkey } from '@cloudvault/contract/passkeys';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { TextField } from '../../../components/ui/text-field';
import { serverErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useRenamePasskey } from '../api/passkeys';

/** Renames a passkey; the field starts with its current name. Keyed by the passkey, so each opening starts afresh. */
export function RenamePasskeyModal({ passkey, onClose }: { passkey: Passkey | null; onClose: () => void }) {
  return <RenameDialog key={passkey?.id ?? 'closed'} passkey={passkey} onClose={onClose} />;
}

function RenameDialog({ passkey, onClose }: { passkey: Passkey | null; onClose: () => void }) {
  const { t } = useTranslation();
  const rename = useRenamePasskey();
  const [name, setName] = useState(passkey?.name ?? '');
  const [error, setError] = useState<string | undefined>();
  const fieldRef = useRef<HTMLInputElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!passkey || rename.isPending) return;
    const trimmed = name.trim();
    if (!trimmed) return setError(t('passkeys.nameRequired'));
    if (trimmed.length > PASSKEY_NAME_MAX_LENGTH) return setError(t('passkeys.nameTooLong', { max: PASSKEY_NAME_MAX_LENGTH }));
    try {
      await rename.mutateAsync({ id: passkey.id, name: trimmed });
      notify.success('passkeys.rename.done');
      onClose();
    } catch (caught) {
      setError(serverErrorMessage(caught) ?? t('passkeys.rename.failed'));
    }
  };

  return (
    <Modal
      open={passkey !== null}
      onClose={onClose}
      busy={rename.isPending}
      size="sm"
      initialFocusRef={fieldRef}
      title={t('passkeys.rename.title')}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={rename.isPending}>
            {t('ui.cancel')}
          </Button>
          <Button type="submit" form="rename-passkey" loading={rename.isPending}>
            {t('passkeys.rename.save')}
          </Button>
        </>
      }
    >
      <form id="rename-passkey" noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextField
          ref={fieldRef}
          label={t('passkeys.nameLabel')}
          name="passkey-new-name"
          autoComplete="off"
          maxLength={PASSKEY_NAME_MAX_LENGTH + 20}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setError(undefined);
          }}
          error={error}
        />
      </form>
    </Modal>
  );
}
