import { ChevronRight, Copy, CornerLeftUp, FolderInput, FolderPlus, type LucideIcon } from 'lucide-react';
import { useContext, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { FolderIcon } from '../../../components/ui/file-icon';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { useFolderPath } from '../../../hooks/use-folder-path';
import { useFolders } from '../../../hooks/use-folders';
import { sortByName, type DriveItem } from '../items';
import { DriveScopeContext } from '../slots';
import { NewFolderForm } from './new-folder-form';

/** What the picked folder receives: the items themselves, or copies of them. */
export type PickerVerb = 'move' | 'copy';

interface VerbLook {
  icon: LucideIcon;
  /**
   * Whether the folder the items are in is a target: a copy may land beside its original
   * (it gets "name (1)"), a move there would change nothing.
   */
  allowsCurrentFolder: boolean;
}

const LOOKS: Record<PickerVerb, VerbLook> = {
  move: { icon: FolderInput, allowsCurrentFolder: false },
  copy: { icon: Copy, allowsCurrentFolder: true },
};

export interface FolderPickerModalProps {
  verb: PickerVerb;
  items: DriveItem[] | null;
  /** The folder the items are in now (where browsing starts). */
  fromFolderId: string | null;
  onClose: () => void;
  /** The choice: `items` into the folder `targetFolderId` named `targetName`. */
  onPick: (items: DriveItem[], targetFolderId: string | null, targetName: string) => void;
}

/**
 * 'Move to…' and 'Copy to…': browse to a folder, or make one there, and move or copy the items
 * into it. A folder being moved or copied cannot be entered (it cannot go into itself).
 */
export function FolderPickerModal(props: FolderPickerModalProps) {
  const { verb, items } = props;
  if (!items || items.length === 0) return null;
  // A new set of items (or the other verb) starts browsing afresh.
  return <ItemsPicker key={`${verb}:${items.map((item) => item.key).join()}`} {...props} items={items} />;
}

function ItemsPicker({ verb, items, fromFolderId, onClose, onPick }: FolderPickerModalProps & { items: DriveItem[] }) {
  const { t } = useTranslation();
  const { icon, allowsCurrentFolder } = LOOKS[verb];
  const name = items[0]?.name ?? '';
  const title =
    verb === 'move'
      ? items.length === 1
        ? t('dashboard.move.title', { name })
        : t('dashboard.move.titleMany', { count: items.length })
      : items.length === 1
        ? t('dashboard.copy.title', { name })
        : t('dashboard.copy.titleMany', { count: items.length });
  return (
    <FolderBrowserModal
      title={title}
      description={verb === 'move' ? t('dashboard.move.description') : t('dashboard.copy.description')}
      icon={icon}
      pickLabel={verb === 'move' ? t('dashboard.move.here') : t('dashboard.copy.here')}
      startFolderId={fromFolderId}
      excludedIds={new Set(items.filter((item) => item.kind === 'folder').map((item) => item.id))}
      canPick={(folderId) => allowsCurrentFolder || folderId !== fromFolderId}
      onClose={onClose}
      onPick={(folderId, folderName) => onPick(items, folderId, folderName)}
    />
  );
}

export interface FolderBrowserModalProps {
  title: string;
  description: string;
  icon: LucideIcon;
  /** The button that picks the folder browsed ("Move here"). */
  pickLabel: string;
  /** Where browsing starts: null for My Files. */
  startFolderId: string | null;
  /** Folders that are not offered (those being moved or copied: nothing goes into itself). */
  excludedIds?: ReadonlySet<string>;
  /** Whether the folder browsed may be picked; any may when absent. */
  canPick?: (folderId: string | null) => boolean;
  onClose: () => void;
  /** The choice: the folder browsed, null for My Files, and its name as shown. */
  onPick: (folderId: string | null, name: string) => void;
}

/**
 * A dialog to browse to a folder, or make one there, and pick it: the one behind Move to and
 * Copy to, and wherever else the app asks for a folder (the files shared into the app).
 */
export function FolderBrowserModal({
  title,
  description,
  icon: Icon,
  pickLabel,
  startFolderId,
  excludedIds,
  canPick,
  onClose,
  onPick,
}: FolderBrowserModalProps) {
  const { t } = useTranslation();
  const [browseId, setBrowseId] = useState<string | null>(startFolderId);
  const [creating, setCreating] = useState(false);
  const folders = useFolders(browseId);
  const path = useFolderPath(browseId);
  const home = t('dashboard.breadcrumbs.home');
  const choices = sortByName(folders.data ?? [], (folder) => folder.name).filter((folder) => !excludedIds?.has(folder.id));
  // In a shared folder the picker reaches no higher than the shared folder (its path's first).
  const scope = useContext(DriveScopeContext);
  const top = scope?.rootId ?? null;
  const trail = browseId === null ? [] : (path.data ?? []);
  const here = trail[trail.length - 1]?.name ?? home;
  const parentId = trail.length >= 2 ? (trail[trail.length - 2]?.id ?? null) : null;
  // Until its path is known the browsed folder's name is not, and the toast names it.
  const disabled = (canPick !== undefined && !canPick(browseId)) || (browseId !== null && path.isPending);

  const browse = (folderId: string | null) => {
    setCreating(false);
    setBrowseId(folderId);
  };

  return (
    <Modal
      open
      onClose={onClose}
      title={title}
      description={description}
      icon={
        <span className="grid size-10 place-items-center rounded-xl bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-300">
          <Icon aria-hidden="true" className="size-5" />
        </span>
      }
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('ui.cancel')}
          </Button>
          <Button disabled={disabled} onClick={() => onPick(browseId, here)}>
            {pickLabel}
          </Button>
        </>
      }
    >
      <div className="flex items-center gap-2 rounded-control bg-surface-muted px-3 py-2 text-sm">
        {browseId !== top && (
          <button
            type="button"
            onClick={() => browse(parentId)}
            aria-label={t('dashboard.move.up')}
            title={t('dashboard.move.up')}
            className="focus-ring grid size-7 shrink-0 place-items-center rounded-md text-ink-muted hover:bg-surface hover:text-ink"
          >
            <CornerLeftUp aria-hidden="true" className="size-4" />
          </button>
        )}
        <p className="min-w-0 flex-1 truncate font-medium text-ink">
          {[...(scope ? [] : [home]), ...trail.map((folder) => folder.name)].join(' / ')}
        </p>
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
          // The new folder becomes the one browsed: the pick button ("Move here") now picks it.
          onCreated={browse}
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
                  onClick={() => browse(folder.id)}
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
