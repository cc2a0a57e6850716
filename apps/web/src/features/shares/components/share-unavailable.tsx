import { Ban, Clock, Link2Off } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';

const ICONS = { expired: Clock, limitReached: Ban, notFound: Link2Off };

/**
 * A link that leads nowhere any more: expired (410), past its download limit (410
 * DOWNLOAD_LIMIT_REACHED), or revoked or never made (404).
 */
export function ShareUnavailable({ reason }: { reason: keyof typeof ICONS }) {
  const { t } = useTranslation();
  const Icon = ICONS[reason];
  return (
    <div className="mx-auto flex w-full max-w-md flex-col items-center rounded-card border border-line bg-surface px-6 py-10 text-center shadow-card sm:px-8">
      <span className="grid size-14 place-items-center rounded-2xl bg-surface-muted text-ink-muted">
        <Icon aria-hidden="true" className="size-7" />
      </span>
      <h1 className="mt-5 text-xl font-bold tracking-tight text-ink">{t(`shares.public.${reason}.title`)}</h1>
      <p className="mt-2 text-sm text-ink-muted">{t(`shares.public.${reason}.body`)}</p>
      <Link to="/" className={cn(buttonClasses({ variant: 'secondary' }), 'mt-6')}>
        {t('shares.public.home')}
      </Link>
    </div>
  );
}
