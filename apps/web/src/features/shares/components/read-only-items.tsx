import { FolderOpen } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { FileItem } from '@cloudvault/contract/files';
import type { Folder } from '@cloudvault/contract/folders';
import { FileIcon, FolderIcon } from '../../../components/ui/file-icon';
import { ThumbnailImage } from '../../../components/ui/thumbnail-image';
import type { FileSource } from '../../../lib/file-source';
import { useFormatSize } from '../../../lib/format-size';

interface ReadOnlyItemsProps {
  folders: Folder[];
  files: FileItem[];
  /** Where a folder opens. */
  folderHref: (folder: Folder) => string;
  /** The controls of a folder row besides opening it (a zip download). */
  folderAction?: (folder: Folder) => ReactNode;
  /** The controls of a file row (its download). */
  fileAction: (file: FileItem) => ReactNode;
  /** Where the files' thumbnails come from. */
  source: FileSource;
  /** Opens a file in the viewer (its name is the button). */
  onOpenFile: (file: FileItem) => void;
}

/**
 * A folder's content for someone who may only look and download: folders first, each
 * opening by its name, then files, each opening in the viewer by its name, with its
 * thumbnail; no selection, renaming, moving or deleting.
 */
export function ReadOnlyItems({ folders, files, folderHref, folderAction, fileAction, source, onOpenFile }: ReadOnlyItemsProps) {
  const { t } = useTranslation();
  const formatSize = useFormatSize();
  if (folders.length === 0 && files.length === 0) {
    return (
      <div className="flex min-h-48 flex-col items-center justify-center gap-3 px-6 py-10 text-center">
        <span className="grid size-14 place-items-center rounded-2xl bg-surface-muted text-ink-subtle">
          <FolderOpen aria-hidden="true" className="size-7" />
        </span>
        <p className="text-sm font-medium text-ink">{t('shares.browse.empty')}</p>
      </div>
    );
  }
  return (
    <ul aria-label={t('shares.browse.listLabel')} className="divide-y divide-line">
      {folders.map((folder) => (
        <li key={`folder:${folder.id}`} aria-label={folder.name} className="flex items-center gap-3 px-3 py-2.5 sm:px-5">
          <FolderIcon size="md" />
          <Link to={folderHref(folder)} className="focus-ring min-w-0 flex-1 rounded-md py-1">
            <span
              className="block truncate text-sm font-semibold text-ink hover:text-brand-600 dark:hover:text-brand-300"
              title={folder.name}
            >
              {folder.name}
            </span>
            <span className="block text-xs text-ink-muted">{t('shares.browse.folder')}</span>
          </Link>
          {folderAction?.(folder)}
        </li>
      ))}
      {files.map((file) => (
        <li key={`file:${file.id}`} aria-label={file.originalName} className="flex items-center gap-3 px-3 py-2.5 sm:px-5">
          <span className="relative shrink-0">
            <FileIcon mimetype={file.mimetype} name={file.originalName} size="md" />
            <ThumbnailImage source={source} file={file} className="absolute inset-0 size-full rounded-xl" />
          </span>
          {/* The size sits beside the button, not in it: the button's name ("View …") must
              hold all of its visible text (label in name). */}
          <div className="min-w-0 flex-1 py-1">
            <button
              type="button"
              data-file-id={file.id}
              onClick={() => onOpenFile(file)}
              aria-label={t('viewer.openNamed', { name: file.originalName })}
              className="focus-ring block max-w-full rounded-md text-left"
            >
              <span
                className="block truncate text-sm font-semibold text-ink hover:text-brand-600 dark:hover:text-brand-300"
                title={file.originalName}
              >
                {file.originalName}
              </span>
            </button>
            <span className="block text-xs text-ink-muted">{formatSize(file.size)}</span>
          </div>
          {fileAction(file)}
        </li>
      ))}
    </ul>
  );
}
