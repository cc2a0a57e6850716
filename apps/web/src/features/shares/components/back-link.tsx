import { ArrowLeft } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The way back to the file manager, above the sharing pages' titles (as on Trash). */
export function BackToFiles() {
  const { t } = useTranslation();
  return (
    <Link
      to="/dashboard"
      className="focus-ring -ml-1 inline-flex items-center gap-1 rounded-md px-1 text-sm font-medium text-ink-muted hover:text-ink"
    >
      <ArrowLeft aria-hidden="true" className="size-4" />
      {t('shares.back')}
    </Link>
  );
}
