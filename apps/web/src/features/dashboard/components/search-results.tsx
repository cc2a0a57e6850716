import { Download, FolderOpen } from 'lucide-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileItem } from '@cloudvault/contract/files';
import { FileIcon } from '../../../components/ui/file-icon';
import { Spinner } from '../../../components/ui/spinner';
import { useFolderPaths } from '../../../hooks/use-folder-path';
import { useFormatSize } from '../../../lib/format-size';

/** More would be a wall of text; a person types more letters instead. */
const SHOWN_HITS = 100;
/** Locations are looked up for the folders of the first hits only. */
const LOCATED_FOLDERS = 40;

interface SearchResultsProps {
  term: string;
  hits: FileItem[] | undefined;
  loading: boolean;
  failed: boolean;
  onShow: (file: FileItem) => void;
  onDownload: (file: FileItem) => void;
}

/** The drive-wide search: files anywhere whose name matches, each with where it lives. */
export function SearchResults({ term, hits, loading, failed, onShow, onDownload }: SearchResultsProps) {
  const { t } = useTranslation();
  const formatSize = useFormatSize();
  const shown = useMemo(() => (hits ?? []).slice(0, SHOWN_HITS), [hits]);
  const folderIds = useMemo(
    () => [...new Set(shown.map((file) => file.folderId).filter((id): id is string => id !== null))].slice(0, LOCATED_FOLDERS),
    [shown],
  );
  const paths = useFolderPaths(folderIds);
  const home = t('dashboard.breadcrumbs.home');
  const locationOf = (folderId: string | null): string | null => {
    if (folderId === null) return home;
    const index = folderIds.indexOf(folderId);
    const path = index >= 0 ? paths[index]?.data : undefined;
    return path ? [home, ...path.map((folder) => folder.name)].join(' / ') : null;
  };

  return (
    <section aria-label={t('dashboard.search.elsewhere')} className="mt-6 border-t border-line pt-5">
      <div className="mb-3 flex items-center gap-2">
        <h2 className="text-sm font-semibold text-ink">{t('dashboard.search.elsewhere')}</h2>
        {hits && !loading && <span className="text-xs text-ink-muted">{t('dashboard.search.hitCount', { count: hits.length })}</span>}
        {loading && <Spinner className="size-4 text-ink-subtle" label={t('dashboard.search.searching')} />}
      </div>
      {failed ? (
        <p className="text-sm text-danger">{t('dashboard.search.failed')}</p>
      ) : hits && hits.length === 0 && !loading ? (
        <p className="text-sm text-ink-muted">{t('dashboard.search.noResults', { term })}</p>
      ) : (
        <ul className="divide-y divide-line rounded-xl border border-line">
          {shown.map((file) => {
            const location = locationOf(file.folderId);
            return (
              <li key={file.id} aria-label={file.originalName} className="flex items-center gap-3 px-3 py-2.5">
                <FileIcon mimetype={file.mimetype} name={file.originalName} size="sm" />
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium text-ink" title={file.originalName}>
                    {file.originalName}
                  </p>
                  <p className="truncate text-xs text-ink-muted">
                    {formatSize(file.size)}
                    {location && <> · {t('dashboard.search.location', { path: location })}</>}
                  </p>
                </div>
                <button
                  type="button"
                  onClick={() => onShow(file)}
                  aria-label={t('dashboard.search.open')}
                  title={t('dashboard.search.open')}
                  className="focus-ring grid size-8 place-items-center rounded-lg text-ink-muted hover:bg-surface-muted hover:text-ink"
                >
                  <FolderOpen aria-hidden="true" className="size-4" />
                </button>
                <button
                  type="button"
                  onClick={() => onDownload(file)}
                  aria-label={t('dashboard.item.download')}
                  title={t('dashboard.item.download')}
                  className="focus-ring grid size-8 place-items-center rounded-lg text-ink-muted hover:bg-surface-muted hover:text-ink"
                >
                  <Download aria-hidden="true" className="size-4" />
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
