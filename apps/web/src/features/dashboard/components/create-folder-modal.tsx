import { FolderPlus } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { TextField } from '../../../components/ui/text-field';
import { serverErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useCreateFolder } from '../api/create-folder';

interface CreateFolderModalProps {
  open: boolean;
  onClose: () => void;
  parentId: string | null;
  parentName: string;
}

/** 'Create New Folder': Create is disabled for a blank name; Enter submits. */
export function CreateFolderModal({ open, onClose, parentId, parentName }: CreateFolderModalProps) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const inputRef = useRef<HTMLInputElement>(null);
  const createFolder = useCreateFolder();

  const close = () => {
    setName('');
    setError(undefined);
    onClose();
  };

  const onSubmit = async (event: { preventDefault: () => void }) => {
    event.preventDefault();
    if (createFolder.isPending) return;
    const trimmed = name.trim();
    if (!trimmed) {
      setError(t('dashboard.createFolder.required'));
      inputRef.current?.focus();
      return;
    }
    try {
      await createFolder.mutateAsync({ name: trimmed, parentId });
      // Folders made one after another merge into one toast: '3 folders created'.
      notify.success('dashboard.createFolder.success', { group: 'folder-created', many: 'dashboard.createFolder.successMany' });
      close();
    } catch (caught) {
      const message = serverErrorMessage(caught) ?? t('dashboard.createFolder.failed');
      setError(message);
      notify.error('dashboard.createFolder.failed', { error: caught });
    }
  };

  return (
    <Modal
      open={open}
      onClose={close}
      busy={createFolder.isPending}
      title={t('dashboard.createFolder.title')}
      description={t('dashboard.createFolder.description', { folder: parentName })}
      initialFocusRef={inputRef}
      icon={
        <span className="grid size-10 place-items-center rounded-xl bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-300">
          <FolderPlus aria-hidden="true" className="size-5" />
        </span>
      }
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={createFolder.isPending}>
            {t('ui.cancel')}
          </Button>
          <Button type="submit" form="create-folder-form" disabled={!name.trim()} loading={createFolder.isPending}>
            {t('dashboard.createFolder.submit')}
          </Button>
        </>
      }
    >
      <form id="create-folder-form" noValidate onSubmit={onSubmit}>
        <TextField
          ref={inputRef}
          label={t('dashboard.createFolder.label')}
          placeholder={t('dashboard.createFolder.placeholder')}
          value={name}
          autoComplete="off"
          maxLength={255}
          onChange={(event) => {
            setName(event.target.value);
            if (error) setError(undefined);
          }}
          onKeyDown={(event) => {
            // Enter submits even while Create is disabled (a disabled default button would
            // swallow it), so a blank name gets its explanation.
            if (event.key === 'Enter') void onSubmit(event);
          }}
          error={error}
        />
      </form>
    </Modal>
  );
}
