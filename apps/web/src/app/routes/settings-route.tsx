import { PasskeysSection } from '../../features/passkeys/components/passkeys-section';
import { SettingsPage } from '../../features/settings/components/settings-page';
import { SingleSignOnSection } from '../../features/single-sign-on/components/single-sign-on-section';

/** /settings: the settings, with the security sections other features own. */
export function SettingsRoute() {
  return (
    <SettingsPage
      security={
        <>
          <PasskeysSection />
          <SingleSignOnSection />
        </>
      }
    />
  );
}
