import { ShieldCheck, ShieldOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { buttonClasses } from '../../../components/ui/button';
import { ProfileCard } from './profile-card';

/** Two-factor sign-in is switched on and off in Settings; here the user sees where it stands. */
export function TwoFactorStatus({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const Icon = enabled ? ShieldCheck : ShieldOff;
  return (
    <ProfileCard
      title={t('profile.twoFactor.title')}
      actions={
        <Link to="/settings#privacy" className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
          {t('profile.twoFactor.manage')}
        </Link>
      }
    >
      <div className="flex items-start gap-3">
        <Icon aria-hidden="true" className={enabled ? 'mt-0.5 size-5 shrink-0 text-success' : 'mt-0.5 size-5 shrink-0 text-ink-subtle'} />
        <div className="min-w-0">
          <Badge tone={enabled ? 'success' : 'neutral'}>{enabled ? t('profile.twoFactor.on') : t('profile.twoFactor.off')}</Badge>
          <p className="mt-2 text-sm text-ink-muted">
            {enabled ? t('profile.twoFactor.onDescription') : t('profile.twoFactor.offDescription')}
          </p>
        </div>
      </div>
    </ProfileCard>
  );
}
