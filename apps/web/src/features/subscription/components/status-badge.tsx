import { useTranslation } from 'react-i18next';
import type { Subscription } from '@cloudvault/contract/subscriptions';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { statusLabel, type StatusLabel } from '../subscription-state';

const tones: Record<StatusLabel, BadgeTone> = { active: 'success', pastDue: 'warning', canceled: 'danger', free: 'neutral' };

/** The subscription's status: Active, Past Due, Canceled, or Free without one. */
export function StatusBadge({ subscription }: { subscription: Subscription | null }) {
  const { t } = useTranslation();
  const label = statusLabel(subscription);
  return (
    <Badge tone={tones[label]}>
      <span className="sr-only">{t('subscription.status.label')}: </span>
      {t(`subscription.status.${label}`)}
    </Badge>
  );
}
