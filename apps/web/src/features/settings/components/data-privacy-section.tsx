import { Database, Download, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { useExportAccountData } from '../api/account-data';
import { DeleteAccountModal } from './delete-account-modal';
import { SettingRow } from './setting-row';
import { SettingsSection } from './settings-section';
import { notify } from '../../../lib/notify';

/** Export everything the account holds, or delete the account. */
export function DataPrivacySection() {
  const { t } = useTranslation();
  const id = useId();
  const exportData = useExportAccountData();
  const [deleting, setDeleting] = useState(false);

  const onExport = async () => {
    try {
      await exportData.mutateAsync();
      notify.success('settings.data.exportStarted');
    } catch {
      notify.error('settings.data.exportFailed');
    }
  };

  return (
    <SettingsSection id="data" icon={Database} title={t('settings.data.title')} description={t('settings.data.description')}>
      <SettingRow
        labelId={`${id}-export`}
        descriptionId={`${id}-export-description`}
        label={t('settings.data.exportLabel')}
        description={t('settings.data.exportDescription')}
        stack
      >
        <Button variant="secondary" loading={exportData.isPending} onClick={() => void onExport()} className="w-full sm:w-auto">
          {!exportData.isPending && <Download aria-hidden="true" className="size-4" />}
          {t('settings.data.export')}
        </Button>
      </SettingRow>
      <SettingRow
        labelId={`${id}-delete`}
        descriptionId={`${id}-delete-description`}
        label={t('settings.data.deleteLabel')}
        description={t('settings.data.deleteDescription')}
        stack
      >
        <Button variant="danger" onClick={() => setDeleting(true)} className="w-full sm:w-auto">
          <Trash2 aria-hidden="true" className="size-4" />
          {t('settings.data.delete')}
        </Button>
      </SettingRow>
      <DeleteAccountModal open={deleting} onClose={() => setDeleting(false)} />
    </SettingsSection>
  );
}
