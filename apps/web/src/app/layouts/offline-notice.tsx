import { CloudOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useOffline } from '../../hooks/use-offline';

/**
 * A strip under the header while the app shows what this device kept (the views opened
 * lately, src/service-worker/account-data.ts) because the network is gone. A status, so a
 * screen reader hears it come and go.
 */
export function OfflineNotice() {
  const { t } = useTranslation();
  const offline = useOffline();
  return (
    <div role="status">
      {offline && (
        <div className="border-b border-line bg-amber-50 dark:bg-amber-950/40">
          <div className="mx-auto flex max-w-7xl items-center gap-3 px-4 py-2 sm:px-6 lg:px-8">
            <CloudOff aria-hidden="true" className="size-4 shrink-0 text-amber-700 dark:text-amber-300" />
            <p className="text-sm text-ink">
              <span className="font-semibold">{t('layout.offline.title')}</span> {t('layout.offline.hint')}
            </p>
          </div>
        </div>
      )}
    </div>
  );
}
