import type { CreatedAppPasswordResponse } from '@cloudvault/contract/app-passwords';
import { KeyRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { CopyField } from './copy-field';

/** The new app password, shown this once, with what a WebDAV client asks for beside it. */
export function AppPasswordCreatedModal({
  created,
  webDavUrl,
  userName,
  onClose,
}: {
  created: CreatedAppPasswordResponse | null;
  webDavUrl: string;
  userName: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={created !== null}
      onClose={onClose}
      size="lg"
      title={t('appPasswords.created.title', { name: created?.name ?? '' })}
      description={t('appPasswords.created.description')}
      icon={
        <span className="grid size-10 place-items-center rounded-full bg-brand-50 text-brand-700 dark:bg-brand-950 dark:text-brand-300">
          <KeyRound aria-hidden="true" className="size-5" />
        </span>
      }
      footer={<Button onClick={onClose}>{t('appPasswords.created.done')}</Button>}
    >
      {created && (
        <div className="flex flex-col gap-4">
          <CopyField label={t('appPasswords.password')} value={created.password} secret />
          <CopyField label={t('appPasswords.serverUrl')} value={webDavUrl} />
          <CopyField label={t('appPasswords.userName')} value={userName} />
        </div>
      )}
    </Modal>
  );
}
