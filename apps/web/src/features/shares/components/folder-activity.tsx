import { History, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FolderActivityEntry } from '@cloudvault/contract/shares';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { useFolderActivity } from '../api/get-folder-activity';

/** What was done inside a shared folder, newest first: who, what, when. */
export function FolderActivityList({ folderId, name }: { folderId: string; name: string }) {
  const { t, i18n } = useTranslation();
  const activity = useFolderActivity(folderId);
  if (activity.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 py-2 text-sm text-ink-muted">
        <Spinner className="size-4" />
        {t('shares.activity.loading')}
      </p>
    );
  }
  if (activity.isError) {
    return (
      <p role="alert" className="flex items-center gap-2 py-2 text-sm text-danger">
        <TriangleAlert aria-hidden="true" className="size-4" />
        {t('shares.activity.failed')}
      </p>
    );
  }
  if (activity.data.length === 0) return <p className="py-2 text-sm text-ink-muted">{t('shares.activity.empty')}</p>;
  const actor = (entry: FolderActivityEntry) =>
    entry.actor.isLinkVisitor ? t('shares.activity.viaLink', { name: entry.actor.name }) : entry.actor.name;
  return (
    <ol aria-label={t('shares.activity.title', { name })} className="flex flex-col divide-y divide-line">
      {activity.data.map((entry) => (
        <li key={entry.id} className="flex flex-col gap-0.5 py-2">
          <span className="text-sm break-words text-ink">
            {t(`shares.activity.actions.${entry.action}`, { actor: actor(entry), name: entry.name })}
          </span>
          <time dateTime={entry.createdAt} className="text-xs text-ink-muted">
            {new Date(entry.createdAt).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' })}
          </time>
        </li>
      ))}
    </ol>
  );
}

/** 'Activity' beside a shared folder's own actions: the list in a dialog. */
export function FolderActivityButton({ folderId, name }: { folderId: string; name: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
        <History aria-hidden="true" className="size-4" />
        {t('shares.activity.open')}
      </Button>
      <Modal open={open} onClose={() => setOpen(false)} title={t('shares.activity.title', { name })}>
        {open && <FolderActivityList folderId={folderId} name={name} />}
      </Modal>
    </>
  );
}

/** The activity folded under its heading in the owner's share dialog: read when unfolded. */
export function FolderActivityDetails({ folderId, name }: { folderId: string; name: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)} className="rounded-control border border-line px-3 py-2">
      <summary className="focus-ring cursor-pointer rounded-md text-sm font-medium text-ink">{t('shares.activity.open')}</summary>
      {open && <FolderActivityList folderId={folderId} name={name} />}
    </details>
  );
}
