import { DEFAULT_SETTINGS } from '@cloudvault/contract/settings-defaults';
import type { Settings } from '@cloudvault/contract/settings';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ContentSpinner } from '../../../components/ui/spinner';
import { PageTitle } from '../../../components/ui/page-title';
import { useSettings } from '../api/get-settings';
import { useUpdateSettings } from '../api/update-settings';
import { withSetting, type ChangeSetting } from '../change-setting';
import { AppearanceSection } from './appearance-section';
import { DataPrivacySection } from './data-privacy-section';
import { DevicesSection } from './devices-section';
import { NotificationsSection } from './notifications-section';
import { PrivacySection } from './privacy-section';
import { StorageSection } from './storage-section';
import { notify } from '../../../lib/notify';

/**
 * Settings (docs/product.md#settings): every change sends the whole
 * settings object, and the controls show only what the server has accepted.
 * `security`: the sections other features own (passkeys), after Privacy (app/routes/settings-route.tsx).
 */
export function SettingsPage({ security }: { security?: ReactNode }) {
  const { t } = useTranslation();
  const query = useSettings();
  const update = useUpdateSettings();
  // docs/product.md#settings: a load failure is only logged (useApplyAppearance logs it); the defaults show.
  const settings: Settings | undefined = query.data ?? (query.isError ? DEFAULT_SETTINGS : undefined);
  // Shown defaults are not the user's real settings: saving over them would lose those, so
  // the controls stay locked until a load succeeds.
  const locked = update.isPending || !query.data;

  const change: ChangeSetting = (group, key, value) => {
    if (!settings || locked) return;
    update.mutate(withSetting(settings, group, key, value), {
      onSuccess: () => notify.success('settings.updated'),
      onError: () => notify.error('settings.updateFailed'),
    });
  };

  return (
    <>
      <PageTitle title={t('settings.pageTitle')} />
      <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">{t('settings.title')}</h1>
          <p className="mt-1 text-sm text-ink-muted">{t('settings.subtitle')}</p>
        </div>
        {settings ? (
          <div aria-busy={update.isPending} className="flex flex-col gap-6">
            <NotificationsSection settings={settings.notifications} busy={locked} onChange={change} />
            <PrivacySection settings={settings.privacy} busy={locked} onChange={change} />
            {security}
            <DevicesSection />
            <AppearanceSection settings={settings.appearance} busy={locked} onChange={change} />
            <StorageSection settings={settings.storage} busy={locked} onChange={change} />
            <DataPrivacySection />
          </div>
        ) : (
          <ContentSpinner />
        )}
      </div>
    </>
  );
}
