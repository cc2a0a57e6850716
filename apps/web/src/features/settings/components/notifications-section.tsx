import { Bell } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Settings } from '@cloudvault/contract/settings';
import type { ChangeSetting } from '../change-setting';
import { SettingSwitch } from './setting-switch';
import { SettingsSection } from './settings-section';

const KEYS = ['email', 'push', 'fileSharing', 'storageAlerts', 'securityAlerts'] as const;

/** Which e-mails and in-app notifications the user gets (docs/product.md#notifications). */
export function NotificationsSection({
  settings,
  busy,
  onChange,
}: {
  settings: Settings['notifications'];
  busy: boolean;
  onChange: ChangeSetting;
}) {
  const { t } = useTranslation();
  return (
    <SettingsSection
      id="notifications"
      icon={Bell}
      title={t('settings.notifications.title')}
      description={t('settings.notifications.description')}
    >
      {KEYS.map((key) => (
        <SettingSwitch
          key={key}
          label={t(`settings.notifications.${key}.label`)}
          description={t(`settings.notifications.${key}.description`)}
          checked={settings[key]}
          disabled={busy}
          onChange={(checked) => onChange('notifications', key, checked)}
        />
      ))}
    </SettingsSection>
  );
}
