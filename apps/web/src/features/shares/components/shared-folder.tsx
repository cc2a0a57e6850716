import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { buttonClasses } from '../../../components/ui/button';
import { useFolderPath } from '../../../hooks/use-folder-path';
import { useSharedWithMe } from '../api/get-shared-with-me';
import { ownerName } from '../public-links';
import { sharedHref } from '../shared-href';
import type { EditorFolderSlot, ViewerSlot } from '../slots';
import { FolderActivityButton } from './folder-activity';
import { LoadingState } from './page-states';
import { SharedFolderView } from './shared-folder-view';

const sectionClass = 'mt-6 overflow-hidden rounded-card border border-line bg-surface shadow-card';

/**
 * A folder inside something shared with the user: the role comes from Shared with me (the
 * share whose folder is the first of the open folder's path). An editor works in it with the
 * file manager (`editorFolder`), a viewer browses it read-only; the server checks every request
 * either way, so a role changed meanwhile shows as a refused action, and on the next visit.
 */
export function SharedFolder({
  folderId,
  viewer,
  editorFolder: EditorFolder,
}: {
  folderId: string;
  viewer: ViewerSlot;
  editorFolder: EditorFolderSlot;
}) {
  const { t } = useTranslation();
  const path = useFolderPath(folderId);
  const shared = useSharedWithMe();
  const root = path.data?.[0];
  const share = root ? shared.data?.folders.find((folder) => folder.id === root.id) : undefined;

  if ((path.isPending || shared.isPending) && !path.isError && !shared.isError) {
    return (
      <section className={sectionClass}>
        <LoadingState label={t('shares.browse.loading')} />
      </section>
    );
  }
  if (root && share?.role === 'editor') {
    const current = path.data?.at(-1) ?? root;
    return (
      <>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="max-w-2xl text-sm text-ink-muted">{t('shares.withMe.editorHint', { owner: ownerName(share.owner) })}</p>
          <div className="flex shrink-0 gap-2">
            <FolderActivityButton folderId={current.id} name={current.name} />
            <Link to={sharedHref(null)} className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
              {t('shares.withMe.backToList')}
            </Link>
          </div>
        </div>
        <EditorFolder rootId={root.id} />
      </>
    );
  }
  return (
    <section className={sectionClass}>
      <SharedFolderView folderId={folderId} viewer={viewer} />
    </section>
  );
}
