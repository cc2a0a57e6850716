import { Star } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { FileItem } from '@cloudvault/contract/files';
import type { Folder } from '@cloudvault/contract/folders';
import { Button } from '../../../components/ui/button';
import { FileRow, FolderRow, ItemList } from '../../../components/ui/item-list';
import { ItemListPage } from '../../../components/ui/item-list-page';
import { formatDay } from '../../../lib/dates';
import { useFormatSize } from '../../../lib/format-size';
import { notify } from '../../../lib/notify';
import { useStarred } from '../api/get-starred';
import { type StarRef, useStarToggle } from '../api/star-items';
import type { ViewerSlot } from '../slots';

/** /starred: the files and folders the user starred, newest star first; a folder opens in My Files, a file in the viewer. */
export function StarredPage({ viewer }: { viewer: ViewerSlot }) {
  const { t } = useTranslation();
  const starred = useStarred();
  const folders = starred.data?.folders ?? [];
  const files = starred.data?.files ?? [];

  return (
    <ItemListPage
      text={(key) => t(`starred.${key}`)}
      emptyIcon={Star}
      query={starred}
      isEmpty={folders.length === 0 && files.length === 0}
      files={files}
      viewer={viewer}
    >
      {(openFile) => <StarredList folders={folders} files={files} onOpenFile={openFile} />}
    </ItemListPage>
  );
}

function StarredList({ folders, files, onOpenFile }: { folders: Folder[]; files: FileItem[]; onOpenFile: (file: FileItem) => void }) {
  const { t, i18n } = useTranslation();
  const formatSize = useFormatSize();
  const toggle = useStarToggle();
  const unstar = (item: StarRef, name: string) =>
    toggle.mutate(
      { items: [item], starred: false },
      {
        onSuccess: () => notify.success('starred.unstarred', { values: { name } }),
        onError: (error) => notify.error('starred.unstarFailed', { error }),
      },
    );
  const unstarButton = (item: StarRef, name: string) => (
    <Button variant="ghost" size="sm" onClick={() => unstar(item, name)} aria-label={t('starred.unstarNamed', { name })}>
      <Star aria-hidden="true" className="size-4 fill-amber-400 text-amber-500" />
    </Button>
  );
  const modified = (iso: string) => t('starred.modified', { date: formatDay(iso, i18n.language) });

  return (
    <ItemList label={t('starred.listLabel')}>
      {folders.map((folder) => (
        <FolderRow
          key={`folder:${folder.id}`}
          folder={folder}
          details={`${t('starred.folder')} · ${modified(folder.updatedAt)}`}
          action={unstarButton({ kind: 'folder', id: folder.id }, folder.name)}
        />
      ))}
      {files.map((file) => (
        <FileRow
          key={`file:${file.id}`}
          file={file}
          onOpen={onOpenFile}
          details={`${formatSize(file.size)} · ${modified(file.updatedAt)}`}
          action={unstarButton({ kind: 'file', id: file.id }, file.originalName)}
        />
      ))}
    </ItemList>
  );
}
