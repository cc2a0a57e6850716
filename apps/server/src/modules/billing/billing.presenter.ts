import type { Plan, PlanId } from '@cloudvault/contract/plans';
import type { BillingHistoryItem, BillingStatus, Subscription, SubscriptionStatus } from '@cloudvault/contract/subscriptions';
import type { PlanEntry } from '../plans/plans.catalogue.ts';
import type { InvoiceRow, SubscriptionRow } from './billing.repository.ts';
import { COMPLIMENTARY } from './billing-rules.ts';

/** A plan as the public catalogue shows it: without the capabilities the server enforces. */
export function presentPlan(plan: PlanEntry): Plan {
  const { capabilities: _capabilities, ...shown } = plan;
  return shown;
}

/** Whether a subscription's provider is an operator's grant (docs/decisions/0029-operator-console.md). */
export function isComplimentary(provider: string | null): boolean {
  return provider === COMPLIMENTARY;
}

export function presentSubscription(row: SubscriptionRow): Subscription {
  const renews = row.status !== 'canceled' && row.cancel_at_period_end === 0;
  return {
    status: row.status as SubscriptionStatus,
    planId: row.plan_id as PlanId,
    cancelAtPeriodEnd: row.cancel_at_period_end === 1,
    currentPeriodEnd: row.current_period_end,
    nextBillingDate: renews ? row.current_period_end : null,
    createdAt: row.created_at,
    complimentary: isComplimentary(row.provider),
  };
}

/** Amounts leave in dollars (the currency's major unit); refunds are negative. */
export function presentBillingItem(row: InvoiceRow): BillingHistoryItem {
  return {
    id: row.provider_invoice_id,
    invoiceId: row.provider_invoice_id,
    amount: Number(row.amount_cents) / 100,
    currency: row.currency,
    date: row.created_at,
    status: row.status as BillingStatus,
    invoiceUrl: row.invoice_url,
  };
}
