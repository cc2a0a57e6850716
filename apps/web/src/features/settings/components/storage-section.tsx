import { HardDrive } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { DELETE_AFTER_DAYS } from '@cloudvault/contract/settings-defaults';
import type { Settings } from '@cloudvault/contract/settings';
import type { ChangeSetting } from '../change-setting';
import { SettingSelect } from './setting-select';
import { SettingSwitch } from './setting-switch';
import { SettingsSection } from './settings-section';

/** Trash retention and zip compression (docs/product.md#settings and docs/product.md#trash). */
export function StorageSection({ settings, busy, onChange }: { settings: Settings['storage']; busy: boolean; onChange: ChangeSetting }) {
  const { t } = useTranslation();
  return (
    <SettingsSection id="storage" icon={HardDrive} title={t('settings.storage.title')} description={t('settings.storage.description')}>
      <SettingSwitch
        label={t('settings.storage.autoDelete.label')}
        description={t('settings.storage.autoDelete.description')}
        checked={settings.autoDelete}
        disabled={busy}
        onChange={(checked) => onChange('storage', 'autoDelete', checked)}
      />
      {settings.autoDelete && (
        <SettingSelect
          label={t('settings.storage.deleteAfterDays.label')}
          description={t('settings.storage.deleteAfterDays.description')}
          value={settings.deleteAfterDays}
          disabled={busy}
          options={DELETE_AFTER_DAYS.map((days) => ({ value: days, label: t('settings.storage.deleteAfterDays.option', { count: days }) }))}
          onChange={(days) => onChange('storage', 'deleteAfterDays', days)}
        />
      )}
      <SettingSwitch
        label={t('settings.storage.compression.label')}
        description={t('settings.storage.compression.description')}
        checked={settings.compressionEnabled}
        disabled={busy}
        onChange={(checked) => onChange('storage', 'compressionEnabled', checked)}
      />
    </SettingsSection>
  );
}
