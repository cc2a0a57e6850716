import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { FILE_SHARE_HOURS, shareFile } from '../api/create-share';
import type { ShareTarget } from '../share-item';
import { PASSWORD_MIN_LENGTH } from '@cloudvault/contract/validation';
import { linkPasswordTooShort, type LinkOptions } from '../link-options';
import { announceLink } from '../announce-link';
import { LinkSettingsFields } from './link-settings-fields';
import { ShareModalIcon } from './share-modal-icon';

/**
 * 'Share File' on plans with password links: the link's lifetime and an optional password,
 * then the link is copied. Closes after the attempt, whether it worked or not
 * (docs/product.md#sharing). Other plans share in one click without this dialog.
 */
export function ShareFileModal({ item, options, onClose }: { item: ShareTarget | null; options: LinkOptions; onClose: () => void }) {
  return item ? <ShareFileForm key={item.id} item={item} options={options} onClose={onClose} /> : null;
}

function ShareFileForm({ item, options, onClose }: { item: ShareTarget; options: LinkOptions; onClose: () => void }) {
  const { t } = useTranslation();
  const [expiresIn, setExpiresIn] = useState(FILE_SHARE_HOURS);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    // Not an attempt yet: the dialog stays open to say why.
    if (linkPasswordTooShort(password)) return setPasswordError(t('dashboard.share.passwordTooShort', { min: PASSWORD_MIN_LENGTH }));
    setPending(true);
    try {
      const { shareUrl } = await shareFile(item.id, { expiresIn, password: password || undefined });
      await announceLink(shareUrl, { copied: t('dashboard.share.fileCopied'), shown: t('dashboard.share.linkReady', { url: shareUrl }) });
    } catch {
      toast.error(t('dashboard.share.fileFailed'));
    } finally {
      setPending(false);
      onClose();
    }
  };

  return (
    <Modal
      open
      onClose={onClose}
      busy={pending}
      title={t('dashboard.share.fileTitle')}
      description={t('dashboard.share.fileDescription', { name: item.name })}
      icon={<ShareModalIcon />}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            {t('ui.cancel')}
          </Button>
          <Button type="submit" form="share-file-form" loading={pending}>
            {t('dashboard.share.submit')}
          </Button>
        </>
      }
    >
      <form id="share-file-form" noValidate onSubmit={onSubmit}>
        <LinkSettingsFields
          maxHours={options.maxHours}
          expiresIn={expiresIn}
          onExpiresInChange={setExpiresIn}
          password={password}
          onPasswordChange={(value) => {
            setPassword(value);
            setPasswordError(undefined);
          }}
          passwordError={passwordError}
        />
      </form>
    </Modal>
  );
}
