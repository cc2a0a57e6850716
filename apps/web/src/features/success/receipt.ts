import type { BillingHistoryItem, CurrentSubscriptionResponse } from '@cloudvault/contract/subscriptions';
import { formatAmount } from '../../lib/money';

/** The Payment Receipt of the Success screen, from the newest billing history entry. */
export interface Receipt {
  /** The last 8 characters of the invoice id. */
  invoiceNumber: string;
  /** '9.99 USD'. */
  amount: string;
  date: string;
  invoiceUrl: string | null;
}

/** The receipt of the newest entry (the API lists newest first); null before any invoice. */
export function receiptOf(billingHistory: readonly BillingHistoryItem[]): Receipt | null {
  const latest = billingHistory[0];
  if (!latest) return null;
  return {
    invoiceNumber: latest.invoiceId.slice(-8),
    amount: formatAmount(latest.amount, latest.currency),
    date: latest.date,
    invoiceUrl: latest.invoiceUrl || null,
  };
}

/** The plan named in 'Welcome to {plan}'; null when the answer has none (the screen then says 'Premium'). */
export function welcomePlanName(details: Partial<CurrentSubscriptionResponse['planDetails']> | undefined): string | null {
  return details?.name?.trim() || null;
}

/** The Storage Limit detail; null when the answer has none (the screen then says 100GB). */
export function storageLimitText(details: Partial<CurrentSubscriptionResponse['planDetails']> | undefined): string | null {
  return details?.storageFormatted?.trim() || null;
}
