import { Clock, FolderOpen } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { FileItem } from '@cloudvault/contract/files';
import type { Folder } from '@cloudvault/contract/folders';
import { FileRow, ItemList } from '../../../components/ui/item-list';
import { ItemListPage } from '../../../components/ui/item-list-page';
import { formatDay } from '../../../lib/dates';
import { folderHref } from '../../../lib/folder-href';
import { useFormatSize } from '../../../lib/format-size';
import { useRecent } from '../api/get-recent';
import type { ViewerSlot } from '../slots';

/**
 * /recent: the files the user opened, uploaded or changed lately, across folders, newest
 * first (docs/decisions/0052-starred-and-recent.md); each opens in the viewer and says
 * which folder it is in, with a link there.
 */
export function RecentPage({ viewer }: { viewer: ViewerSlot }) {
  const { t } = useTranslation();
  const recent = useRecent();
  const files = recent.data?.files ?? [];

  return (
    <ItemListPage
      text={(key) => t(`recent.${key}`)}
      emptyIcon={Clock}
      query={recent}
      isEmpty={files.length === 0}
      files={files}
      viewer={viewer}
    >
      {(openFile) => <RecentList files={files} folders={recent.data?.folders ?? []} onOpenFile={openFile} />}
    </ItemListPage>
  );
}

function RecentList({ files, folders, onOpenFile }: { files: FileItem[]; folders: Folder[]; onOpenFile: (file: FileItem) => void }) {
  const { t, i18n } = useTranslation();
  const formatSize = useFormatSize();
  const folderNames = new Map(folders.map((folder) => [folder.id, folder.name]));
  const placeOf = (file: FileItem) =>
    file.folderId === null ? t('recent.myFiles') : (folderNames.get(file.folderId) ?? t('recent.aFolder'));

  return (
    <ItemList label={t('recent.listLabel')}>
      {files.map((file) => (
        <FileRow
          key={file.id}
          file={file}
          onOpen={onOpenFile}
          details={
            <>
              {formatSize(file.size)} · {t('recent.modified', { date: formatDay(file.updatedAt, i18n.language) })} ·{' '}
              {t('recent.inFolder', { folder: placeOf(file) })}
            </>
          }
          action={
            <Link
              to={folderHref(file.folderId)}
              className="focus-ring inline-flex shrink-0 items-center gap-1.5 rounded-control px-2 py-1.5 text-xs font-medium text-ink-muted hover:bg-surface-muted hover:text-ink"
            >
              <FolderOpen aria-hidden="true" className="size-4" />
              <span className="hidden sm:inline">{t('recent.showInFolder')}</span>
              <span className="sr-only">
                <span className="sm:hidden">{t('recent.showInFolder')} </span>
                {file.originalName}
              </span>
            </Link>
          }
        />
      ))}
    </ItemList>
  );
}
