import { CloudOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { EmptyPanel } from './empty-panel';

/**
 * In place of a view's spinner when the network is gone and this device kept nothing of that
 * view (docs/decisions/0066-offline-and-sharing-in.md): it shows by itself once the network
 * returns, the paused request carrying on.
 */
export function NotSavedOffline({ className }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <EmptyPanel
      role="status"
      icon={CloudOff}
      title={t('ui.notSavedOffline.title')}
      hint={t('ui.notSavedOffline.hint')}
      className={className}
    />
  );
}
