import { ExternalLink, Receipt } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { BillingHistoryItem } from '@cloudvault/contract/subscriptions';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { formatDay } from '../../../lib/dates';
import { formatAmount } from '../../../lib/money';
import { billingTone, type BillingTone } from '../subscription-state';

const badgeTones: Record<BillingTone, BadgeTone> = { success: 'success', warning: 'warning', danger: 'danger' };

/** Billing history: every invoice (and refund) with its status colour and, when there is one, its invoice page. */
export function BillingTab({ items }: { items: readonly BillingHistoryItem[] }) {
  const { t, i18n } = useTranslation();

  return (
    <section aria-labelledby="billing-title" className="overflow-hidden rounded-card border border-line bg-surface shadow-card">
      <h2 id="billing-title" className="border-b border-line px-5 py-4 font-semibold text-ink sm:px-6">
        {t('subscription.billing.title')}
      </h2>
      {items.length === 0 ? (
        <div className="flex flex-col items-center px-6 py-12 text-center">
          <span className="grid size-14 place-items-center rounded-2xl bg-surface-muted text-ink-subtle">
            <Receipt aria-hidden="true" className="size-7" />
          </span>
          <p className="mt-4 font-semibold text-ink">{t('subscription.billing.empty')}</p>
          <p className="mt-1 max-w-sm text-sm text-ink-muted">{t('subscription.billing.emptyHint')}</p>
        </div>
      ) : (
        <ul aria-label={t('subscription.billing.listLabel')} className="divide-y divide-line">
          {items.map((item) => {
            const number = item.invoiceId.slice(-8);
            return (
              <li key={item.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-5 py-4 sm:flex-nowrap sm:px-6">
                <div className="min-w-0 flex-1">
                  <p className="text-sm font-semibold text-ink">{t('subscription.billing.invoice', { number })}</p>
                  <p className="text-xs text-ink-muted">
                    <time dateTime={item.date}>{formatDay(item.date, i18n.language)}</time>
                  </p>
                </div>
                <p className="text-sm font-semibold text-ink tabular-nums">{formatAmount(item.amount, item.currency)}</p>
                <Badge tone={badgeTones[billingTone(item.status)]} className="min-w-16 justify-center">
                  {t(`subscription.billing.statusValue.${item.status}`)}
                </Badge>
                {item.invoiceUrl && (
                  <a
                    href={item.invoiceUrl}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={t('subscription.billing.viewInvoiceLabel', { number })}
                    className="focus-ring inline-flex items-center gap-1 rounded-md text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
                  >
                    {t('subscription.billing.viewInvoice')}
                    <ExternalLink aria-hidden="true" className="size-3.5" />
                  </a>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
