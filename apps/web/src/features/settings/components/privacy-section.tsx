import { ShieldCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Settings } from '@cloudvault/contract/settings';
import type { ChangeSetting } from '../change-setting';
import { SettingSelect } from './setting-select';
import { SettingSwitch } from './setting-switch';
import { SettingsSection } from './settings-section';
import { TwoFactorSetting } from './two-factor-setting';

type Visibility = Settings['privacy']['profileVisibility'];
const VISIBILITIES: readonly Visibility[] = ['private', 'friends', 'public'];

/** How the owner is named on shares, download counts, and two-factor sign-in. */
export function PrivacySection({ settings, busy, onChange }: { settings: Settings['privacy']; busy: boolean; onChange: ChangeSetting }) {
  const { t } = useTranslation();
  return (
    <SettingsSection id="privacy" icon={ShieldCheck} title={t('settings.privacy.title')} description={t('settings.privacy.description')}>
      <SettingSelect
        label={t('settings.privacy.visibility.label')}
        description={t('settings.privacy.visibility.description')}
        value={settings.profileVisibility}
        disabled={busy}
        options={VISIBILITIES.map((visibility) => ({ value: visibility, label: t(`settings.privacy.visibility.options.${visibility}`) }))}
        onChange={(visibility) => onChange('privacy', 'profileVisibility', visibility)}
      />
      <SettingSwitch
        label={t('settings.privacy.shareAnalytics.label')}
        description={t('settings.privacy.shareAnalytics.description')}
        checked={settings.shareAnalytics}
        disabled={busy}
        onChange={(checked) => onChange('privacy', 'shareAnalytics', checked)}
      />
      <TwoFactorSetting enabled={settings.twoFactorAuth} disabled={busy} />
    </SettingsSection>
  );
}
