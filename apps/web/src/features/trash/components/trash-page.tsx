import { ArrowLeft, RotateCcw, Trash2, TriangleAlert } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TrashResponse } from '@cloudvault/contract/trash';
import { Button } from '../../../components/ui/button';
import { FileIcon, FolderIcon } from '../../../components/ui/file-icon';
import { Modal } from '../../../components/ui/modal';
import { PageTitle } from '../../../components/ui/page-title';
import { Spinner } from '../../../components/ui/spinner';
import { useFormatSize } from '../../../lib/format-size';
import { notify } from '../../../lib/notify';
import { useEmptyTrash, usePurgeItem, useRestoreItem, useTrash } from '../api/trash';
import { formatDay, formatMoment } from '../../../lib/dates';

type TrashedFolder = TrashResponse['folders'][number];
type TrashedFile = TrashResponse['files'][number];
type TrashEntry =
  | { type: 'folder'; id: string; name: string; deletedAt: string; purgeAt: string | null; folder: TrashedFolder }
  | { type: 'file'; id: string; name: string; deletedAt: string; purgeAt: string | null; file: TrashedFile };

function entriesOf(trash: TrashResponse): TrashEntry[] {
  return [
    ...trash.folders.map((folder): TrashEntry => ({
      type: 'folder',
      id: folder.id,
      name: folder.name,
      deletedAt: folder.deletedAt,
      purgeAt: folder.purgeAt,
      folder,
    })),
    ...trash.files.map((file): TrashEntry => ({
      type: 'file',
      id: file.id,
      name: file.originalName,
      deletedAt: file.deletedAt,
      purgeAt: file.purgeAt,
      file,
    })),
  ].sort((a, b) => b.deletedAt.localeCompare(a.deletedAt));
}

/**
 * Trash (docs/product.md#trash): deleted files and folders with when they were deleted
 * and, when auto-delete is on, when they go for good; Restore each, or Empty Trash.
 */
export function TrashPage() {
  const { t, i18n } = useTranslation();
  const formatSize = useFormatSize();
  const trash = useTrash();
  const restore = useRestoreItem();
  const empty = useEmptyTrash();
  const purge = usePurgeItem();
  const [confirming, setConfirming] = useState(false);
  const [purging, setPurging] = useState<TrashEntry | null>(null);
  const entries = useMemo(() => (trash.data ? entriesOf(trash.data) : []), [trash.data]);
  const dateTime = (value: string) => formatMoment(value, i18n.language);
  const date = (value: string) => formatDay(value, i18n.language);

  const onRestore = (entry: TrashEntry) => {
    restore.mutate(
      { type: entry.type, id: entry.id },
      {
        onSuccess: () => notify.success('trash.restored', { values: { name: entry.name } }),
        onError: (error) => notify.error('trash.restoreFailed', { error }),
      },
    );
  };

  const onPurge = (entry: TrashEntry) => {
    purge.mutate(
      { type: entry.type, id: entry.id },
      {
        onSuccess: () => {
          notify.success('trash.purged', { values: { name: entry.name } });
          setPurging(null);
        },
        onError: (error) => notify.error('trash.purgeFailed', { error }),
      },
    );
  };

  const onEmpty = () => {
    empty.mutate(undefined, {
      onSuccess: () => {
        notify.success('trash.emptied');
        setConfirming(false);
      },
      onError: (error) => notify.error('trash.emptyFailed', { error }),
    });
  };

  let content;
  if (trash.isPending) {
    content = (
      <div role="status" className="flex min-h-64 flex-col items-center justify-center gap-3 text-sm text-ink-muted">
        <Spinner className="size-7 text-brand-600 dark:text-brand-400" />
        {t('trash.loading')}
      </div>
    );
  } else if (trash.isError) {
    content = (
      <div role="alert" className="flex min-h-64 flex-col items-center justify-center gap-4 text-center">
        <TriangleAlert aria-hidden="true" className="size-7 text-danger" />
        <p className="text-sm font-medium text-ink">{t('trash.loadFailed')}</p>
        <Button variant="secondary" onClick={() => void trash.refetch()}>
          {t('trash.retry')}
        </Button>
      </div>
    );
  } else if (entries.length === 0) {
    content = (
      <div className="flex min-h-64 flex-col items-center justify-center px-6 py-12 text-center">
        <span className="grid size-16 place-items-center rounded-2xl bg-surface-muted text-ink-subtle">
          <Trash2 aria-hidden="true" className="size-8" />
        </span>
        <h2 className="mt-5 text-lg font-semibold text-ink">{t('trash.empty')}</h2>
        <p className="mt-1.5 max-w-sm text-sm text-ink-muted">{t('trash.emptyHint')}</p>
      </div>
    );
  } else {
    content = (
      <ul aria-label={t('trash.listLabel')} className="divide-y divide-line">
        {entries.map((entry) => {
          const restoring = restore.isPending && restore.variables?.id === entry.id;
          return (
            <li
              key={`${entry.type}:${entry.id}`}
              aria-label={entry.name}
              className="flex flex-wrap items-center gap-3 px-3 py-3 sm:flex-nowrap sm:px-5"
            >
              {entry.type === 'folder' ? <FolderIcon size="md" /> : <FileIcon mimetype={entry.file.mimetype} name={entry.name} size="md" />}
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-semibold text-ink" title={entry.name}>
                  {entry.name}
                </p>
                <p className="text-xs text-ink-muted">
                  {entry.type === 'folder' ? t('trash.folder') : formatSize(entry.file.size)}
                  <span className="text-ink-subtle"> · </span>
                  {t('trash.deletedOn', { date: dateTime(entry.deletedAt) })}
                  {entry.purgeAt && (
                    <>
                      <span className="text-ink-subtle"> · </span>
                      <span className="text-danger">{t('trash.purgeOn', { date: date(entry.purgeAt) })}</span>
                    </>
                  )}
                </p>
              </div>
              <Button
                variant="secondary"
                size="sm"
                loading={restoring}
                onClick={() => onRestore(entry)}
                aria-label={`${t('trash.restore')} ${entry.name}`}
              >
                {!restoring && <RotateCcw aria-hidden="true" className="size-4" />}
                {t('trash.restore')}
              </Button>
              <Button variant="ghost" size="sm" onClick={() => setPurging(entry)} aria-label={`${t('trash.deleteForever')} ${entry.name}`}>
                <Trash2 aria-hidden="true" className="size-4" />
                <span className="sr-only sm:not-sr-only">{t('trash.deleteForever')}</span>
              </Button>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <>
      <PageTitle title={t('trash.pageTitle')} />
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <Link
            to="/dashboard"
            className="focus-ring -ml-1 inline-flex items-center gap-1 rounded-md px-1 text-sm font-medium text-ink-muted hover:text-ink"
          >
            <ArrowLeft aria-hidden="true" className="size-4" />
            {t('trash.back')}
          </Link>
          <h1 className="mt-2 text-2xl font-bold tracking-tight text-ink sm:text-3xl">{t('trash.title')}</h1>
          <p className="mt-1.5 max-w-2xl text-sm text-ink-muted">{t('trash.subtitle')}</p>
        </div>
        {entries.length > 0 && (
          <Button variant="danger" onClick={() => setConfirming(true)}>
            <Trash2 aria-hidden="true" className="size-4" />
            {t('trash.emptyTrash')}
          </Button>
        )}
      </div>
      <section className="mt-6 overflow-hidden rounded-card border border-line bg-surface shadow-card">
        {entries.length > 0 && (
          <p className="border-b border-line px-3 py-2.5 text-xs font-medium text-ink-muted sm:px-5">
            {t('trash.summary', { count: entries.length })}
          </p>
        )}
        {content}
      </section>
      <Modal
        open={purging !== null}
        onClose={() => setPurging(null)}
        busy={purge.isPending}
        size="sm"
        title={t('trash.purgeTitle', { name: purging?.name ?? '' })}
        description={t('trash.purgeMessage')}
        icon={
          <span className="grid size-10 place-items-center rounded-xl bg-danger-soft text-danger">
            <Trash2 aria-hidden="true" className="size-5" />
          </span>
        }
        footer={
          <>
            <Button variant="secondary" onClick={() => setPurging(null)} disabled={purge.isPending}>
              {t('ui.cancel')}
            </Button>
            <Button variant="danger" loading={purge.isPending} onClick={() => purging && onPurge(purging)}>
              {t('trash.deleteForever')}
            </Button>
          </>
        }
      />
      <Modal
        open={confirming}
        onClose={() => setConfirming(false)}
        busy={empty.isPending}
        size="sm"
        title={t('trash.confirmTitle')}
        description={t('trash.confirmMessage', { count: entries.length })}
        icon={
          <span className="grid size-10 place-items-center rounded-xl bg-danger-soft text-danger">
            <Trash2 aria-hidden="true" className="size-5" />
          </span>
        }
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)} disabled={empty.isPending}>
              {t('ui.cancel')}
            </Button>
            <Button variant="danger" loading={empty.isPending} onClick={onEmpty}>
              {t('trash.confirm')}
            </Button>
          </>
        }
      />
    </>
  );
}
