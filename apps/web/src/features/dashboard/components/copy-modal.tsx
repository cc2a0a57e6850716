import { ChevronRight, Copy, CornerLeftUp } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { FolderIcon } from '../../../components/ui/file-icon';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { useFolderPath } from '../../../hooks/use-folder-path';
import { useFolders } from '../../../hooks/use-folders';
import { sortByName, type DriveItem } from '../items';

interface CopyModalProps {
  items: DriveItem[] | null;
  /** The folder the items are in now (where browsing starts). */
  fromFolderId: string | null;
  onClose: () => void;
  onCopy: (items: DriveItem[], targetFolderId: string | null, targetName: string) => void;
}

/**
 * 'Copy to…': browse to a folder and copy the items there, the Move dialog's picker with the
 * Copy verb. The folder they are in is a valid target (the copies get "name (1)"); a folder
 * being copied cannot be entered (a copy into itself).
 */
export function CopyModal({ items, fromFolderId, onClose, onCopy }: CopyModalProps) {
  if (!items || items.length === 0) return null;
  return (
    <CopyBrowser key={items.map((item) => item.key).join()} items={items} fromFolderId={fromFolderId} onClose={onClose} onCopy={onCopy} />
  );
}

function CopyBrowser({ items, fromFolderId, onClose, onCopy }: CopyModalProps & { items: DriveItem[] }) {
  const { t } = useTranslation();
  const [browseId, setBrowseId] = useState<string | null>(fromFolderId);
  const folders = useFolders(browseId);
  const path = useFolderPath(browseId);
  const home = t('dashboard.breadcrumbs.home');
  const copyingFolders = new Set(items.filter((item) => item.kind === 'folder').map((item) => item.id));
  const choices = sortByName(folders.data ?? [], (folder) => folder.name).filter((folder) => !copyingFolders.has(folder.id));
  const trail = browseId === null ? [] : (path.data ?? []);
  const here = trail[trail.length - 1]?.name ?? home;
  const parentId = trail.length >= 2 ? (trail[trail.length - 2]?.id ?? null) : null;

  return (
    <Modal
      open
      onClose={onClose}
      title={
        items.length === 1
          ? t('dashboard.copy.title', { name: items[0]?.name ?? '' })
          : t('dashboard.copy.titleMany', { count: items.length })
      }
      description={t('dashboard.copy.description')}
      icon={
        <span className="grid size-10 place-items-center rounded-xl bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-300">
          <Copy aria-hidden="true" className="size-5" />
        </span>
      }
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('ui.cancel')}
          </Button>
          <Button disabled={browseId !== null && path.isPending} onClick={() => onCopy(items, browseId, here)}>
            {t('dashboard.copy.here')}
          </Button>
        </>
      }
    >
      <div className="flex items-center gap-2 rounded-control bg-surface-muted px-3 py-2 text-sm">
        {browseId !== null && (
          <button
            type="button"
            onClick={() => setBrowseId(parentId)}
            aria-label={t('dashboard.move.up')}
            title={t('dashboard.move.up')}
            className="focus-ring grid size-7 shrink-0 place-items-center rounded-md text-ink-muted hover:bg-surface hover:text-ink"
          >
            <CornerLeftUp aria-hidden="true" className="size-4" />
          </button>
        )}
        <p className="min-w-0 truncate font-medium text-ink">{[home, ...trail.map((folder) => folder.name)].join(' / ')}</p>
      </div>
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
                  onClick={() => setBrowseId(folder.id)}
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
