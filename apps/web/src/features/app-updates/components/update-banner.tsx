import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { Button } from '../../../components/ui/button';

/** How often an open app asks the server for a new service worker; a navigation asks too. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * "A new version of CloudVault is available." once a new service worker is installed and
 * waiting: it takes over only when the user clicks Reload to update (the page then reloads
 * into the new version), never under their feet. Later hides the notice; the new version
 * then starts once every tab of the app is closed.
 */
export default function UpdateBanner() {
  const { t } = useTranslation();
  const [reloading, setReloading] = useState(false);
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    immediate: false,
    onRegisteredSW(_url, registration) {
      if (registration) setInterval(() => void registration.update().catch(() => {}), UPDATE_CHECK_MS);
    },
  });

  return (
    // Present before the notice, so that screen readers announce the notice as it appears.
    <div role="status" aria-live="polite">
      {needRefresh && (
        <div className="cv-pop-in fixed inset-x-3 top-[calc(4.75rem+env(safe-area-inset-top))] z-[60] mx-auto flex max-w-md flex-wrap items-center gap-3 rounded-card border border-line bg-surface px-4 py-3 text-sm text-ink shadow-popover">
          <p className="min-w-48 flex-1 font-medium">{t('layout.appUpdate.message')}</p>
          <div className="ml-auto flex gap-2">
            <Button variant="ghost" size="sm" onClick={() => setNeedRefresh(false)}>
              {t('layout.appUpdate.later')}
            </Button>
            <Button
              size="sm"
              loading={reloading}
              onClick={() => {
                setReloading(true);
                void updateServiceWorker();
              }}
            >
              {t('layout.appUpdate.reload')}
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
