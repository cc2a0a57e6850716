import { CloudOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/**
 * In place of a view's spinner when the network is gone and this device kept nothing of that
 * view (docs/decisions/0066-offline-and-sharing-in.md): it shows by itself once the network
 * returns, the paused request carrying on.
 */
export function NotSavedOffline({ className = 'min-h-48' }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <div role="status" className={`flex ${className} flex-col items-center justify-center gap-3 px-6 py-12 text-center`}>
      <span className="grid size-14 place-items-center rounded-2xl bg-surface-muted text-ink-muted">
        <CloudOff aria-hidden="true" className="size-7" />
      </span>
      <h2 className="text-base font-semibold text-ink">{t('ui.notSavedOffline.title')}</h2>
      <p className="max-w-sm text-sm text-ink-muted">{t('ui.notSavedOffline.hint')}</p>
    </div>
  );
}
