import { useTranslation } from 'react-i18next';
import { Logo } from '../../components/ui/logo';

export function PublicFooter() {
  const { t } = useTranslation();
  return (
    <footer className="border-t border-line bg-surface">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:flex-row sm:items-center sm:justify-between sm:px-8">
        <div className="space-y-2">
          <Logo />
          <p className="text-sm text-ink-muted">{t('layout.footer.tagline')}</p>
        </div>
        <div className="space-y-1 text-sm text-ink-muted sm:text-right">
          <p>{t('layout.footer.studentProject')}</p>
          <p className="text-ink-subtle">{t('layout.footer.copyright', { year: new Date().getFullYear() })}</p>
        </div>
      </div>
    </footer>
  );
}
