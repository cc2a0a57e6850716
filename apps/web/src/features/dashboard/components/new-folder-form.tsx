import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { serverErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useCreateFolder } from '../api/create-folder';

/**
 * "New folder" inside the picker: a name, made in the folder being browsed. Escape puts the
 * form away without closing the dialog.
 */
export function NewFolderForm({
  parentId,
  onCancel,
  onCreated,
}: {
  parentId: string | null;
  onCancel: () => void;
  onCreated: (folderId: string) => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const inputRef = useRef<HTMLInputElement>(null);
  const createFolder = useCreateFolder();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (createFolder.isPending) return;
    const trimmed = name.trim();
    if (!trimmed) {
      setError(t('dashboard.createFolder.required'));
      inputRef.current?.focus();
      return;
    }
    try {
      const folder = await createFolder.mutateAsync({ name: trimmed, parentId });
      // Grouped with the other dialog's: folders made one after another are one toast.
      notify.success('dashboard.createFolder.success', { group: 'folder-created', many: 'dashboard.createFolder.successMany' });
      onCreated(folder.id);
    } catch (caught) {
      setError(serverErrorMessage(caught) ?? t('dashboard.createFolder.failed'));
      inputRef.current?.focus();
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    onCancel();
  };

  return (
    <form noValidate onSubmit={onSubmit} onKeyDown={onKeyDown} className="mt-3 flex items-end gap-2">
      <div className="min-w-0 flex-1">
        <TextField
          ref={inputRef}
          // The form opens on the button's press, to be typed in at once.
          autoFocus
          label={t('dashboard.move.newFolderName')}
          placeholder={t('dashboard.createFolder.placeholder')}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setError(undefined);
          }}
          error={error}
        />
      </div>
      <Button type="submit" loading={createFolder.isPending} disabled={!name.trim()} className={error ? 'mb-6' : undefined}>
        {t('dashboard.createFolder.submit')}
      </Button>
    </form>
  );
}
