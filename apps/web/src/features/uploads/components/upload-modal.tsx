import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/ui/modal';
import { UploadZone } from './upload-zone';

/** The 'Upload Files' dialog: the upload zone for the open folder. Closes once files are on their way. */
export function UploadModal({
  open,
  onClose,
  folderId,
  folderName,
}: {
  open: boolean;
  onClose: () => void;
  folderId: string | null;
  folderName: string;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('uploads.modalTitle')}
      description={t('uploads.modalDescription', { folder: folderName })}
      size="lg"
    >
      <UploadZone folderId={folderId} onStarted={onClose} />
    </Modal>
  );
}
