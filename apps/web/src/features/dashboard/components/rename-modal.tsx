import { Pencil } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { TextField } from '../../../components/ui/text-field';
import { serverErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useRenameItem } from '../api/update-item';
import type { DriveItem } from '../items';

/** Renames a file or a folder (PATCH); the server refuses a name taken in the same folder. */
export function RenameModal({ item, onClose }: { item: DriveItem | null; onClose: () => void }) {
  return item ? <RenameForm key={item.key} item={item} onClose={onClose} /> : null;
}

function RenameForm({ item, onClose }: { item: DriveItem; onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(item.name);
  const [error, setError] = useState<string | undefined>();
  const inputRef = useRef<HTMLInputElement>(null);
  const rename = useRenameItem();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (rename.isPending) return;
    const trimmed = name.trim();
    if (!trimmed) {
      setError(t('dashboard.rename.required'));
      return;
    }
    if (trimmed === item.name) {
      onClose();
      return;
    }
    try {
      await rename.mutateAsync({ item, name: trimmed });
      notify.success('dashboard.rename.success', { values: { name: trimmed } });
      onClose();
    } catch (caught) {
      const message = serverErrorMessage(caught) ?? t('dashboard.rename.failed');
      setError(message);
      notify.error('dashboard.rename.failed', { error: caught });
    }
  };

  return (
    <Modal
      open
      onClose={onClose}
      busy={rename.isPending}
      title={t('dashboard.rename.title')}
      description={item.name}
      initialFocusRef={inputRef}
      icon={
        <span className="grid size-10 place-items-center rounded-xl bg-surface-muted text-ink-muted">
          <Pencil aria-hidden="true" className="size-5" />
        </span>
      }
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={rename.isPending}>
            {t('ui.cancel')}
          </Button>
          <Button type="submit" form="rename-form" disabled={!name.trim()} loading={rename.isPending}>
            {t('dashboard.rename.submit')}
          </Button>
        </>
      }
    >
      <form id="rename-form" noValidate onSubmit={onSubmit}>
        <TextField
          ref={inputRef}
          label={t('dashboard.rename.label')}
          value={name}
          autoComplete="off"
          maxLength={255}
          onFocus={(event) => {
            // Select the name without its extension, as file managers do.
            const dot = item.kind === 'file' ? event.target.value.lastIndexOf('.') : -1;
            event.target.setSelectionRange(0, dot > 0 ? dot : event.target.value.length);
          }}
          onChange={(event) => {
            setName(event.target.value);
            if (error) setError(undefined);
          }}
          error={error}
        />
      </form>
    </Modal>
  );
}
