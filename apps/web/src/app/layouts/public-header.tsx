import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { Logo } from '../../components/ui/logo';
import { cn } from '../../lib/cn';

export function PublicHeader() {
  const { t } = useTranslation();
  const navLinkClass = 'focus-ring rounded-md px-3 py-2 text-sm font-medium text-ink-muted transition-colors hover:text-ink';

  return (
    <header className="sticky top-0 z-40 border-b border-line/70 bg-canvas/80 pt-[env(safe-area-inset-top)] backdrop-blur-md">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4 sm:gap-4 sm:px-8">
        <Link to="/" className="focus-ring -m-1 rounded-lg p-1">
          <Logo wordmark="responsive" />
        </Link>
        <nav aria-label={t('layout.nav.label')} className="hidden items-center gap-1 md:flex">
          <Link to="/#features" className={navLinkClass}>
            {t('layout.nav.features')}
          </Link>
          <NavLink to="/pricing" className={({ isActive }) => cn(navLinkClass, isActive && 'text-ink')}>
            {t('layout.nav.pricing')}
          </NavLink>
        </nav>
        <div className="flex items-center gap-1.5 sm:gap-2">
          <Link to="/login" className={buttonClasses({ variant: 'ghost', size: 'sm' })}>
            {t('layout.nav.signIn')}
          </Link>
          <Link to="/register" className={buttonClasses({ size: 'sm' })}>
            {t('layout.nav.getStarted')}
          </Link>
        </div>
      </div>
    </header>
  );
}
