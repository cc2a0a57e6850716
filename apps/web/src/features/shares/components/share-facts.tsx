import { CalendarClock, UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { PublicShare } from '@cloudvault/contract/shares';
import { ownerName } from '../public-links';
import { formatMoment } from '../../../lib/dates';

/** Who shared it and until when, under a public share's name. */
export function ShareFacts({ share }: { share: PublicShare }) {
  const { t, i18n } = useTranslation();
  const expiry = share.expiresAt ? formatMoment(share.expiresAt, i18n.language) : null;
  return (
    <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-ink-muted">
      <div className="flex items-center gap-1.5">
        <UserRound aria-hidden="true" className="size-4 text-ink-subtle" />
        <dt className="sr-only">{t('shares.public.ownerLabel')}</dt>
        <dd>{t('shares.public.sharedBy', { owner: ownerName(share.owner) })}</dd>
      </div>
      <div className="flex items-center gap-1.5">
        <CalendarClock aria-hidden="true" className="size-4 text-ink-subtle" />
        <dt className="sr-only">{t('shares.public.expiryLabel')}</dt>
        <dd>{expiry ? t('shares.public.expires', { date: expiry }) : t('shares.public.noExpiry')}</dd>
      </div>
    </dl>
  );
}
