import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { FileItem } from '@cloudvault/contract/files';
import type { Folder } from '@cloudvault/contract/folders';
import { signedInFileSource } from '../../lib/file-source';
import { folderHref } from '../../lib/folder-href';
import { FileIcon, FolderIcon } from './file-icon';
import { OfflineMarker } from './offline-marker';
import { ThumbnailImage } from './thumbnail-image';

const ROW_CLASS = 'flex items-center gap-3 px-3 py-2.5 sm:px-5';
const NAME_CLASS = 'block truncate text-sm font-semibold text-ink hover:text-brand-600 dark:hover:text-brand-300';

/** A list of files and folders across the drive (Starred, Recent): a row each, named by the item. */
export function ItemList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <ul aria-label={label} className="divide-y divide-line">
      {children}
    </ul>
  );
}

interface RowProps {
  /** The line under the name: size, date, where it is… */
  details: ReactNode;
  /** What sits at the row's end (a link to its folder, a star button), if anything. */
  action?: ReactNode;
}

/** A folder's row: the whole name and details open it in My Files. */
export function FolderRow({ folder, details, action }: RowProps & { folder: Folder }) {
  return (
    <li aria-label={folder.name} className={ROW_CLASS}>
      <FolderIcon size="md" />
      <Link to={folderHref(folder.id)} className="focus-ring min-w-0 flex-1 rounded-md py-1">
        <span className={NAME_CLASS} title={folder.name}>
          {folder.name}
        </span>
        <span className="block text-xs text-ink-muted">{details}</span>
      </Link>
      {action}
    </li>
  );
}

/**
 * A file's row: its name opens it in the viewer. The button carries data-file-id so
 * ItemListPage can give it the focus back when the viewer closes.
 */
export function FileRow({ file, details, action, onOpen }: RowProps & { file: FileItem; onOpen: (file: FileItem) => void }) {
  const { t } = useTranslation();
  return (
    <li aria-label={file.originalName} className={ROW_CLASS}>
      <span className="relative shrink-0">
        <FileIcon mimetype={file.mimetype} name={file.originalName} size="md" />
        <ThumbnailImage source={signedInFileSource} file={file} className="absolute inset-0 size-full rounded-xl" />
      </span>
      <div className="min-w-0 flex-1 py-1">
        {/* The button's name holds all of its visible text (label in name); the details sit beside it. */}
        <button
          type="button"
          data-file-id={file.id}
          onClick={() => onOpen(file)}
          aria-label={t('viewer.openNamed', { name: file.originalName })}
          className="focus-ring block max-w-full rounded-md text-left"
        >
          <span className={NAME_CLASS} title={file.originalName}>
            {file.originalName}
          </span>
        </button>
        {/* Wraps on a phone rather than cutting the details off; the offline mark after them. */}
        <span className="block text-xs text-ink-muted">
          {details} <OfflineMarker file={file} />
        </span>
      </div>
      {action}
    </li>
  );
}
