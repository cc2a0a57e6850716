import type { InvoiceSnapshot, PaymentEvent, PaymentProvider, SubscriptionSnapshot } from '../../adapters/payments/payment-provider.ts';
import type { ServiceLog } from '../../lib/service-log.ts';
import type { BillingQueries } from './billing.repository.ts';
import type { PlanChanges, PlanQueries, PlanTransaction } from './plan-changes.ts';

/** What applying a provider's events reads and writes, beside deciding the plan. */
export type PaymentEventQueries = PlanQueries &
  Pick<
    BillingQueries,
    | 'recordEvent'
    | 'userExists'
    | 'findUserIdByCustomer'
    | 'saveCustomerId'
    | 'findSubscription'
    | 'saveSubscription'
    | 'saveInvoice'
    | 'setFirstPaidAt'
    | 'findInvoice'
  >;

export interface PaymentEventsDeps {
  planChanges: PlanChanges<PaymentEventQueries>;
  provider: Pick<PaymentProvider, 'name'>;
  log: Pick<ServiceLog, 'warn'>;
}

/**
 * The one path for what a provider says happened, whether from a webhook, the local checkout
 * or an API answer: each event is recorded by its id and applied once, in one transaction,
 * the user's plan following the subscription.
 */
export function createPaymentEvents(deps: PaymentEventsDeps) {
  const { provider, log } = deps;
  type Transaction = PlanTransaction<PaymentEventQueries>;

  async function userOfSnapshot({ records }: Transaction, snapshot: SubscriptionSnapshot, hint?: string) {
    for (const candidate of [hint, snapshot.userId]) {
      if (candidate && (await records.userExists(candidate))) return candidate;
    }
    return records.findUserIdByCustomer(provider.name, snapshot.customerId);
  }

  async function applySubscription(transaction: Transaction, snapshot: SubscriptionSnapshot, userHint?: string): Promise<void> {
    const { records, at } = transaction;
    const userId = await userOfSnapshot(transaction, snapshot, userHint);
    if (!userId) {
      log.warn({ subscription: snapshot.providerSubscriptionId }, 'payment event for an unknown customer ignored');
      return;
    }
    await records.saveCustomerId(userId, provider.name, snapshot.customerId, at);
    const existing = await records.findSubscription(snapshot.providerSubscriptionId);
    // Canceled is final at every provider: a late or repeated report cannot bring it back.
    if (existing?.status === 'canceled' && snapshot.status !== 'canceled') return;
    await records.saveSubscription({
      provider_subscription_id: snapshot.providerSubscriptionId,
      user_id: existing?.user_id ?? userId,
      provider: provider.name,
      customer_id: snapshot.customerId,
      plan_id: snapshot.planId,
      status: snapshot.status,
      cancel_at_period_end: snapshot.cancelAtPeriodEnd ? 1 : 0,
      current_period_start: snapshot.currentPeriodStart,
      current_period_end: snapshot.currentPeriodEnd,
      first_paid_at: null,
      created_at: existing?.created_at ?? snapshot.createdAt,
      updated_at: at,
    });
    if (existing && snapshot.status !== 'canceled' && existing.cancel_at_period_end !== (snapshot.cancelAtPeriodEnd ? 1 : 0)) {
      // Cancel names the plan the user moves to at period end; reactivating, the plan kept.
      await transaction.addHistory(
        existing.user_id,
        snapshot.cancelAtPeriodEnd ? 'cancel' : 'other',
        snapshot.cancelAtPeriodEnd ? 'FREE' : snapshot.planId,
      );
    }
    await transaction.followSubscription(existing?.user_id ?? userId);
  }

  async function applyInvoice({ records }: Transaction, invoice: InvoiceSnapshot, refundOf: string | null = null): Promise<void> {
    const subscription = invoice.providerSubscriptionId ? await records.findSubscription(invoice.providerSubscriptionId) : undefined;
    const userId = subscription?.user_id ?? (await records.findUserIdByCustomer(provider.name, invoice.customerId));
    if (!userId) {
      log.warn({ invoice: invoice.providerInvoiceId }, 'invoice for an unknown customer ignored');
      return;
    }
    await records.saveInvoice({
      provider_invoice_id: invoice.providerInvoiceId,
      user_id: userId,
      provider_subscription_id: invoice.providerSubscriptionId,
      amount_cents: invoice.amountCents,
      currency: invoice.currency,
      status: invoice.status,
      invoice_url: invoice.invoiceUrl,
      payment_ref: invoice.paymentRef,
      refund_of: refundOf,
      created_at: invoice.createdAt,
    });
    if (invoice.status === 'paid' && invoice.amountCents > 0 && invoice.providerSubscriptionId) {
      await records.setFirstPaidAt(invoice.providerSubscriptionId, invoice.createdAt);
    }
  }

  /**
   * A refund gives back what paid for the period, so the period ends with it: the
   * subscription is over now and the user is on Free, whatever the provider still says
   * (canceled is final here, so a late report cannot bring the plan back).
   */
  async function endRefunded(transaction: Transaction, refundedInvoiceId: string): Promise<void> {
    const { records, at } = transaction;
    const paid = await records.findInvoice(refundedInvoiceId);
    const subscription = paid?.provider_subscription_id ? await records.findSubscription(paid.provider_subscription_id) : undefined;
    if (!subscription) return;
    if (subscription.status !== 'canceled') {
      await records.saveSubscription({
        ...subscription,
        status: 'canceled',
        cancel_at_period_end: 0,
        current_period_end: at < subscription.current_period_end ? at : subscription.current_period_end,
        updated_at: at,
      });
    }
    await transaction.followSubscription(subscription.user_id);
  }

  async function applyEvent(transaction: Transaction, event: PaymentEvent): Promise<void> {
    if (!(await transaction.records.recordEvent(event.id, event.type, transaction.at))) return;
    switch (event.type) {
      case 'checkout.completed':
        return applySubscription(transaction, event.subscription, event.userId);
      case 'subscription.changed':
        return applySubscription(transaction, event.subscription);
      case 'invoice.paid':
      case 'invoice.payment_failed':
        if (event.subscription) await applySubscription(transaction, event.subscription);
        return applyInvoice(transaction, event.invoice);
      case 'invoice.refunded':
        await applyInvoice(transaction, event.invoice, event.refundOf);
        return endRefunded(transaction, event.refundOf);
    }
  }

  return {
    /** Applies each event in its own transaction, in order; an event id seen before changes nothing. */
    async applyEvents(events: PaymentEvent[]): Promise<void> {
      for (const event of events) await deps.planChanges.inTransaction((transaction) => applyEvent(transaction, event));
    },
  };
}
