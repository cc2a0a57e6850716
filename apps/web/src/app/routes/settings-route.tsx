import { PasskeysSection } from '../../features/passkeys/components/passkeys-section';
import { SettingsPage } from '../../features/settings/components/settings-page';

/** /settings: the settings, with the security sections other features own. */
export function SettingsRoute() {
  return <SettingsPage security={<PasskeysSection />} />;
}
