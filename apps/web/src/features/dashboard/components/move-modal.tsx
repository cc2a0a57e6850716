import { ChevronRight, CornerLeftUp, FolderInput, FolderPlus } from 'lucide-react';
import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { FolderIcon } from '../../../components/ui/file-icon';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { useFolderPath } from '../../../hooks/use-folder-path';
import { useFolders } from '../../../hooks/use-folders';
import { serverErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useCreateFolder } from '../api/create-folder';
import { sortByName, type DriveItem } from '../items';

interface MoveModalProps {
  items: DriveItem[] | null;
  /** The folder the items are in now (where browsing starts). */
  fromFolderId: string | null;
  onClose: () => void;
  onMove: (items: DriveItem[], targetFolderId: string | null, targetName: string) => void;
}

/** 'Move to…': browse to a folder and move the items there. */
export function MoveModal({ items, fromFolderId, onClose, onMove }: MoveModalProps) {
  if (!items || items.length === 0) return null;
  return (
    <MoveBrowser key={items.map((item) => item.key).join()} items={items} fromFolderId={fromFolderId} onClose={onClose} onMove={onMove} />
  );
}

function MoveBrowser({ items, fromFolderId, onClose, onMove }: MoveModalProps & { items: DriveItem[] }) {
  const { t } = useTranslation();
  const [browseId, setBrowseId] = useState<string | null>(fromFolderId);
  const [creating, setCreating] = useState(false);
  const folders = useFolders(browseId);
  const path = useFolderPath(browseId);
  const home = t('dashboard.breadcrumbs.home');
  const movingFolders = new Set(items.filter((item) => item.kind === 'folder').map((item) => item.id));
  // A folder cannot go into itself, so the folders being moved cannot be entered.
  const choices = sortByName(folders.data ?? [], (folder) => folder.name).filter((folder) => !movingFolders.has(folder.id));
  const trail = browseId === null ? [] : (path.data ?? []);
  const here = trail[trail.length - 1]?.name ?? home;
  const parentId = trail.length >= 2 ? (trail[trail.length - 2]?.id ?? null) : null;

  return (
    <Modal
      open
      onClose={onClose}
      title={
        items.length === 1
          ? t('dashboard.move.title', { name: items[0]?.name ?? '' })
          : t('dashboard.move.titleMany', { count: items.length })
      }
      description={t('dashboard.move.description')}
      icon={
        <span className="grid size-10 place-items-center rounded-xl bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-300">
          <FolderInput aria-hidden="true" className="size-5" />
        </span>
      }
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('ui.cancel')}
          </Button>
          <Button disabled={browseId === fromFolderId} onClick={() => onMove(items, browseId, here)}>
            {t('dashboard.move.here')}
          </Button>
        </>
      }
    >
      <div className="flex items-center gap-2 rounded-control bg-surface-muted px-3 py-2 text-sm">
        {browseId !== null && (
          <button
            type="button"
            onClick={() => {
              setCreating(false);
              setBrowseId(parentId);
            }}
            aria-label={t('dashboard.move.up')}
            title={t('dashboard.move.up')}
            className="focus-ring grid size-7 shrink-0 place-items-center rounded-md text-ink-muted hover:bg-surface hover:text-ink"
          >
            <CornerLeftUp aria-hidden="true" className="size-4" />
          </button>
        )}
        <p className="min-w-0 flex-1 truncate font-medium text-ink">{[home, ...trail.map((folder) => folder.name)].join(' / ')}</p>
        {!creating && (
          <Button variant="ghost" size="sm" onClick={() => setCreating(true)} className="shrink-0">
            <FolderPlus aria-hidden="true" className="size-4" />
            {t('dashboard.move.newFolder')}
          </Button>
        )}
      </div>
      {creating && (
        <NewFolderForm
          parentId={browseId}
          onCancel={() => setCreating(false)}
          // The new folder becomes the one browsed: "Move here" now moves into it.
          onCreated={(folderId) => {
            setCreating(false);
            setBrowseId(folderId);
          }}
        />
      )}
      <div className="mt-3 max-h-72 min-h-40 overflow-y-auto rounded-control border border-line">
        {folders.isPending ? (
          <div className="flex h-40 items-center justify-center">
            <Spinner label={t('dashboard.move.loading')} />
          </div>
        ) : choices.length === 0 ? (
          <p className="flex h-40 items-center justify-center text-sm text-ink-muted">{t('dashboard.move.noFolders')}</p>
        ) : (
          <ul className="divide-y divide-line">
            {choices.map((folder) => (
              <li key={folder.id}>
                <button
                  type="button"
                  onClick={() => {
                    setCreating(false);
                    setBrowseId(folder.id);
                  }}
                  aria-label={t('dashboard.move.openFolder', { name: folder.name })}
                  className="focus-ring flex w-full items-center gap-3 px-3 py-2.5 text-left text-sm text-ink hover:bg-surface-muted"
                >
                  <FolderIcon size="sm" />
                  <span className="min-w-0 flex-1 truncate">{folder.name}</span>
                  <ChevronRight aria-hidden="true" className="size-4 text-ink-subtle" />
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Modal>
  );
}

/**
 * "New folder" inside the picker: a name, made in the folder being browsed. Escape puts the
 * form away without closing the dialog.
 */
function NewFolderForm({
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
