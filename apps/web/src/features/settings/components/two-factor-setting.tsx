import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { DisableTwoFactorModal } from './disable-two-factor-modal';
import { SettingSwitch } from './setting-switch';
import { TwoFactorSetupModal } from './two-factor-setup-modal';

/**
 * The two-factor switch shows the server's real state: turning it on opens Configure (QR
 * code, a code to confirm, recovery codes); turning it off asks for a code. While it is on,
 * Configure sets it up again with a new authenticator.
 */
export function TwoFactorSetting({ enabled, disabled }: { enabled: boolean; disabled: boolean }) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'setup' | 'reconfigure' | 'disable' | null>(null);
  const close = () => setDialog(null);

  return (
    <>
      <SettingSwitch
        label={t('settings.privacy.twoFactor.label')}
        description={t('settings.privacy.twoFactor.description')}
        checked={enabled}
        disabled={disabled}
        onChange={(checked) => setDialog(checked ? 'setup' : 'disable')}
        extra={
          enabled && (
            <Button variant="secondary" size="sm" disabled={disabled} onClick={() => setDialog('reconfigure')}>
              {t('settings.privacy.twoFactor.configure')}
            </Button>
          )
        }
      />
      {(dialog === 'setup' || dialog === 'reconfigure') && <TwoFactorSetupModal reconfigure={dialog === 'reconfigure'} onClose={close} />}
      {dialog === 'disable' && <DisableTwoFactorModal onClose={close} />}
    </>
  );
}
