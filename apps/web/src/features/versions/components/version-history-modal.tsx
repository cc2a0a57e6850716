import { History, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { FileItem } from '@cloudvault/contract/files';
import type { FileVersion } from '@cloudvault/contract/versions';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { useCurrentSubscription } from '../../../hooks/use-current-subscription';
import { useFormatSize } from '../../../lib/format-size';
import { notify } from '../../../lib/notify';
import { useDeleteVersion } from '../api/delete-version';
import { downloadVersion } from '../api/download-version';
import { useVersions } from '../api/get-versions';
import { useRestoreVersion } from '../api/restore-version';
import { includesVersioning } from '../plan-access';
import { VersionRow } from './version-row';
import { VersionsUpgradePrompt } from './versions-upgrade-prompt';

interface VersionHistoryModalProps {
  file: FileItem;
  onClose: () => void;
}

/**
 * 'Version history' of a file. Business lists the earlier versions; Free and Pro see an
 * upgrade prompt, with any versions kept from an earlier Business plan still listed under
 * it so they can be recovered or deleted (docs/decisions/0011). Mounted only while open,
 * so a listing of many files does not ask for every history.
 */
export function VersionHistoryModal({ file, onClose }: VersionHistoryModalProps) {
  const { t, i18n } = useTranslation();
  const formatSize = useFormatSize();
  const subscription = useCurrentSubscription();
  const versions = useVersions(file.id);
  const restore = useRestoreVersion(file.id);
  const remove = useDeleteVersion(file.id);
  const busy = restore.isPending || remove.isPending;
  const included = subscription.data ? includesVersioning(subscription.data.plan) : null;

  const onDownload = (version: FileVersion) => {
    downloadVersion(file.id, version.id).catch((error: unknown) => notify.error('versions.downloadFailed', { error }));
  };
  const onRestore = async (version: FileVersion) => {
    try {
      const { file: restored } = await restore.mutateAsync(version.id);
      notify.success('versions.restored', { values: { size: formatSize(restored.size) } });
    } catch (error) {
      notify.error('versions.restoreFailed', { error });
    }
  };
  const onDelete = async (version: FileVersion) => {
    try {
      await remove.mutateAsync(version.id);
      notify.success('versions.deleted');
    } catch (error) {
      notify.error('versions.deleteFailed', { error });
    }
  };

  const list = versions.data ?? [];
  let body;
  if (versions.isPending || included === null) {
    body = (
      <div className="flex justify-center py-8">
        <Spinner label={t('ui.loading')} className="size-6 text-brand-600 dark:text-brand-400" />
      </div>
    );
  } else if (versions.isError) {
    body = (
      <div role="alert" className="flex flex-col items-center gap-3 py-6 text-center">
        <TriangleAlert aria-hidden="true" className="size-6 text-danger" />
        <p className="text-sm text-ink">{t('versions.loadFailed')}</p>
        <Button size="sm" variant="secondary" onClick={() => void versions.refetch()}>
          {t('versions.retry')}
        </Button>
      </div>
    );
  } else {
    body = (
      <div className="grid gap-4 pb-1">
        {!included && <VersionsUpgradePrompt onNavigate={onClose} />}
        {(included || list.length > 0) && (
          <ul aria-label={t('versions.listLabel')} className="divide-y divide-line">
            <li className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3">
              <div className="min-w-40 flex-1">
                <p className="text-sm font-medium text-ink">
                  <time dateTime={file.updatedAt}>
                    {new Date(file.updatedAt).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' })}
                  </time>
                </p>
                <p className="text-xs text-ink-muted">{formatSize(file.size)}</p>
              </div>
              <Badge tone="brand">{t('versions.current')}</Badge>
            </li>
            {list.map((version) => (
              <VersionRow
                key={version.id}
                version={version}
                disabled={busy}
                restoring={restore.isPending && restore.variables === version.id}
                deleting={remove.isPending && remove.variables === version.id}
                onDownload={onDownload}
                onRestore={onRestore}
                onDelete={onDelete}
              />
            ))}
          </ul>
        )}
        {included && list.length === 0 && <p className="text-sm text-ink-muted">{t('versions.empty')}</p>}
      </div>
    );
  }

  return (
    <Modal
      open
      onClose={onClose}
      busy={busy}
      size="lg"
      title={t('versions.title')}
      description={<span className="break-all">{file.originalName}</span>}
      icon={
        <span className="grid size-10 place-items-center rounded-xl bg-brand-50 text-brand-600 dark:bg-brand-950 dark:text-brand-300">
          <History aria-hidden="true" className="size-5" />
        </span>
      }
    >
      {body}
    </Modal>
  );
}
