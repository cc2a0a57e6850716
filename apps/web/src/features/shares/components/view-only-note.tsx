import { EyeOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/** Said on every view-only link: downloads are off, and a screen can still be captured. */
export function ViewOnlyNote() {
  const { t } = useTranslation();
  return (
    <p className="flex items-start gap-2 rounded-xl bg-surface-muted px-3.5 py-2.5 text-sm text-ink-muted">
      <EyeOff aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-ink-subtle" />
      <span>{t('shares.public.viewOnlyNote')}</span>
    </p>
  );
}
