import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CurrentSubscriptionResponse } from '@cloudvault/contract/subscriptions';
import { Badge } from '../../../components/ui/badge';
import { formatDay } from '../../../lib/dates';
import { useFormatSize } from '../../../lib/format-size';
import { formatPrice } from '../../../lib/money';
import { storageLimitText } from '../receipt';

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-4 py-2.5">
      <dt className="text-ink-muted">{term}</dt>
      <dd className="text-right font-medium text-ink">{children}</dd>
    </div>
  );
}

/** Plan, Storage Limit, Price, Next Billing (when known) and Status of the new subscription. */
export function SubscriptionDetails({ result, planName }: { result: CurrentSubscriptionResponse; planName: string }) {
  const { t, i18n } = useTranslation();
  const formatSize = useFormatSize();
  const nextBilling = result.subscription?.nextBillingDate;
  return (
    <section aria-labelledby="details-title" className="rounded-card border border-line bg-surface p-5 shadow-card sm:p-6">
      <h2 id="details-title" className="font-semibold text-ink">
        {t('success.details.title')}
      </h2>
      <dl className="mt-4 divide-y divide-line text-sm">
        <Row term={t('success.details.plan')}>{planName}</Row>
        <Row term={t('success.details.storageLimit')}>
          {/* The plan's limit in bytes, written for the language; the fallback of docs/product.md#success when the answer names none. */}
          {storageLimitText(result.planDetails) === null ? t('success.details.defaultStorage') : formatSize(result.storageLimit)}
        </Row>
        <Row term={t('success.details.price')}>
          {formatPrice(result.planDetails.price, i18n.language)}
          <span className="font-normal text-ink-muted">{t('common.perMonth')}</span>
        </Row>
        {nextBilling && <Row term={t('success.details.nextBilling')}>{formatDay(nextBilling, i18n.language)}</Row>}
        <Row term={t('success.details.status')}>
          <Badge tone="success">{t('success.details.active')}</Badge>
        </Row>
      </dl>
    </section>
  );
}
