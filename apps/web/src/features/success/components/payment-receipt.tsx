import { ExternalLink, ReceiptText } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/badge';
import { formatDay } from '../../../lib/dates';
import type { Receipt } from '../receipt';

/** The Payment Receipt of the newest invoice. */
export function PaymentReceipt({ receipt }: { receipt: Receipt }) {
  const { t, i18n } = useTranslation();
  return (
    <section aria-labelledby="receipt-title" className="rounded-card border border-line bg-surface p-5 shadow-card sm:p-6">
      <h2 id="receipt-title" className="flex items-center gap-2 font-semibold text-ink">
        <ReceiptText aria-hidden="true" className="size-5 text-ink-subtle" />
        {t('success.receipt.title')}
      </h2>
      <dl className="mt-4 divide-y divide-line text-sm">
        <div className="flex justify-between gap-4 py-2.5">
          <dt className="text-ink-muted">{t('success.receipt.invoice')}</dt>
          <dd className="font-mono font-medium text-ink">{t('success.receipt.invoiceNumber', { number: receipt.invoiceNumber })}</dd>
        </div>
        <div className="flex justify-between gap-4 py-2.5">
          <dt className="text-ink-muted">{t('success.receipt.amount')}</dt>
          <dd className="font-semibold text-ink tabular-nums">{receipt.amount}</dd>
        </div>
        <div className="flex justify-between gap-4 py-2.5">
          <dt className="text-ink-muted">{t('success.receipt.date')}</dt>
          <dd className="text-ink">
            <time dateTime={receipt.date}>{formatDay(receipt.date, i18n.language)}</time>
          </dd>
        </div>
        <div className="flex items-center justify-between gap-4 py-2.5">
          <dt className="text-ink-muted">{t('success.receipt.status')}</dt>
          <dd>
            <Badge tone="success">{t('success.receipt.paid')}</Badge>
          </dd>
        </div>
      </dl>
      {receipt.invoiceUrl && (
        <a
          href={receipt.invoiceUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="focus-ring mt-3 inline-flex items-center gap-1 rounded-md text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
        >
          {t('success.receipt.viewInvoice')}
          <ExternalLink aria-hidden="true" className="size-3.5" />
        </a>
      )}
    </section>
  );
}
